import Foundation

/// Synthetic compressed fixtures made with Python's zlib (level 9, raw deflate) from generated
/// text — no real file is copied here. `export` is an Apple Health export with 300 step records
/// (30,150 steps in all) and one cycling workout whose route lives in `route`.
enum CompressionFixtures {
    static func decode(_ text: String) -> [UInt8] {
        [UInt8](Data(base64Encoded: text.filter { !$0.isWhitespace })!)
    }

    /// Raw deflate (dynamic Huffman) of a 54,499-byte export.xml, CRC-32 0x6f43aa1b.
    static let exportDeflated = decode("""
        xZ1rb1TnFYW/+1dM51MvAp+133efS2U7aoGI3tKUi1BVVWhkT/AIewYNxzSW+uM72G5Km/W260OlJSVKcAZ48oCyVzjjh5Ovvr++\
        Wnxa7z9udtvTJR53y8V6e7672GzfnS5fv/r60bj86uzo5CdP//jk1Z+/fbZ4vl5dzZdPV/Nq8ZfDh5/9/tkfnn3z6ssP//TF+ny3\
        v/j7m93+/e5m/tnPz47+evgWvnjF1e58dbU+Xa63b1+/XJ4dLU7uv8pivv1w+PDz3/3pZrWdN/Ptq8OXf3OxPvz9d5v1/uW8/vBk\
        d7Odl4uPu5v9+fqb1fXh5S9vt/Plet6cL7693G3Xy8XNdjOfLs8fXjmv9vPhez28MLrAo6486rDoul/e/bH4RYfu7l/5gr6mfvGa\
        T6urm8MrsDx2EadAPP2YuIw2ZAiSQSQP6UMWLINYBsLGHILmYD+X6+RjFjwH8zz2NuYieC7EcxQfsqC5EM19Z0OuguVKLE+DD1mw\
        XNlP5lJtzCloTvYfjcF3AlPwnMSz6wJCmBmgM6OmDzkFZCY5bMgQLLOdAUw+ZkEzHRrZ25hD8EyHxlR8zIJnNjRKZ0Mugma2M/rB\
        hyxYZjsDXbUxV0FzpbMZPmbBM10ag+8GpuCZLg3fDUxBMxsa6bqBISyNoEtjnHzIKSCzn8zR25ghaKZToy8+ZsEzmxrRdTbmEDyz\
        qVEGH7KgmS2NodqQi2C50OEMH7OgmU6NOtqYq+CZTo0xfcyCZzY1wncDU9DMlkb6bmAKltnSmFwnsAhLo/BHJ6X4mFNgpru5szFD\
        8EyfnviIBctsaNRqQw5BMtsZI3zIgmX66ASjjbkImunQyPQxC57p0JjCxlwFz2xoxORDFjSzndH7LmAKlumvaHS+C5iC5qSz2XUB\
        q7A0Kl8aw+BjToGZerYhQ9DMhkbChyxYZktjHG3IIVimD08ifcyCZjo1+rAxF8EznRrT5GMWPLOpUXobchU0s6UxFB+yYJk+PIHv\
        BKagmU6N6juBKXimU2N03cAUpkbSqRHwIaeAzB5SjTZkCJbZ0pjShyxYpu/TKGFjDkEznRr95GMWPLOp0duIi2CZDY1afMiCZLYz\
        xs6GXAXL9NEJBh+zoJkOjfQdwBQ806Ex+S5gCp7Z0AjXBeyFndHTndGnDzkFZPrerrAxQ9BM36ZRJh+z4JkujaG3MYfgmS6N4kMW\
        NLOhkZ0NuQiW2dIYBx+yYJk+PIlqY66CZjo1eviYBc90aky+G5iCZzY1iu8GpqCZLY3BdQIHYWkM/OFJN/mYU2CmD096GzMEz3Rq\
        jMXHLHjm7wi1IYegmS2NHHzIgmW2NKZqQy6CZfrwpMDHLGimU6MfbcxV8MymRvqIBctsaFTfBUxBMtsZg+8ApmCZPjqB6wCOwtAY\
        +dDI4mNOgZnO5s7GDMEzGxox+JAFzWxn9NWGHIJl+isaHXzMgmb6Ng1bG2YUlsbIl4YtDjMKS2Ns/KKGDbkKmtnQsKVhRmFpjHRp\
        jL4TmIJl+vAkfCcwBc10atjaMJMwNSY+NWxxmEmYGhPvdlUbMgTN9DNP4EMWLNOHJ91oYw5BM+92pY9Z8My7XWFjLoJn/o5QH7Kg\
        mS0NWxxmEpbGxLtdxYcsWObdLt8JTEEznRq97wSm4JlNDdMFhJAHBc+DutIwEPqg4H1QVxkGQh8UXaPblT5mQTPvdoWNOQTPdGi4\
        4jAQAqHggVBXGwZCHxS8D+pKw0Dog6JrdLs6G3MVNNO3abjaMBAKoWgUQgffDUzBM10avhuYgmY6NFw3UCiEghdCXWUYCIVQoNHt\
        ChszBM10arjaMBASoWgkQl1xGAiJUPBEqKsNA6EQCl4IdaVhIBRCwQuh6AYfs6CZd7uqjbkKnnm3Cz5mwTOdGr4bmIJm2u3y3cAU\
        LNNul+sECoVQ8EIoXHEYCIlQNBKhrjoMhEQoeCK0+IgFy7Tb1dmQQ5DMdoarDAOhD4podLuqjbkImnm3Cz5mwTMdGq44DIRAKHgg\
        1NWGgdAHBe+D9r4LmIJltjMm3wFMwTJ9l4YrDQMhEIpGINTVhoEQCEUjENrZkCFoZjvDVYaBEAgFD4S6wjAQAqEojWwXfMyCZro0\
        XGkYCIVQNAqhrjYMhEIoeCHUlYaBEAgFD4S6yjAQAqHggVB0vhOYgmae7fKdwBQ882yX6wYKhVC0CqE+5BSQ2Vu7qg0ZgmWa7YIP\
        WbBMn5242jAQCqFoFEJdcRgIhVDwQmjYiItgmQ0NVxkGQh4UPA/qCsNAyIOiNrJdxccsaObZLt8BTMEzHRqj7wKm4Jlmu1wXUMiD\
        gudBXWUYCHlQ8DyoKwwDIQ+KbFS70scsaObVrrAxh+CZDY3JRyxYZjPD1YWBkAcFz4O6sjAQ8qDIxue3djbmKmimQ8MVhoHQB0Wj\
        Dzr5LmAKnmm0y3cBU9DMdoarCwMhD4q+Ee1KH3MKzPSNXWFjhuCZLg1XGwZCHxSNPmhvQw5BM412FR+yYJlGuzobchEs00cnrjIM\
        hD4oGn1QVxoGQh8UjT6oj1iwzIZG8V3AFCTTaJfvAKZgmUe7XAdQqIOiUQd1hWEg1EHRqIO6yjAQ6qDgdVBXGAZCHBQ8DurqwkCI\
        g4LHQV1ZGAhxUAyNZle1MRdBM292wccseKa/5YmNuAqWabIrfciCZJrs8h3AFCzzz271HcAUNNOh4crCQKiDolEHdXVhINRBweug\
        riwMhDgoeBzUVYWBEAfF2Eh2VRtzCJp5sgs+ZsEzXRq2MoxQB0WjDpo+ZEEzTXaFDbkKltnSsGVhhDgoeBwU4TuBKWjmyS7fCUzB\
        M32Phi0MI9RBweugti6MEAcFj4PasjBCHBRTI9oFH7OgmU4NWxhGqIOiUQe1lWGEOih4HdQWhhHioOBxUFsXRoiDgsdBbVkYIQ6K\
        qdHsKj5mQTNvdvlOYAqe6dMTH7FgmSa7TBcwhDho8DioKwoTQhw0eBwUripMCHXQaNRBXVmYEOqg0aiDurowIdRBg9dBXVmYEOKg\
        weOgripMCHHQ6BrJruJjFjTzZFdnY66CZ7o0XGWYEOqg0aiD+m5gCpppsst3A1OwzJaGKwsTQhw00Eh2pY85BWb6zq6wMUPwTKeG\
        qwwTQh00eB3UFYYJIQ4aPA7q6sKEEAcNNKJdnY25CJrp1HCVYUKog0ajDupKw4RQBw1eB3WVYUKIgwaPg6bvBqZgmUa7fCcwBcs8\
        2uU6gUIdNBp1UFcZJoQ6aPA6aG8jhmCZNruKD1mQTJtdnQ05BMv00YkrCxNCHTQadVBXFyaEOmg06qCuMEwIddDgdVBXFyaEOGjw\
        OKgrCxNCHDSi0ezyXcAUNNO3aRTfBUzBM10arjRMCHnQaORBiw85BWQ2mzsbMgTLbGm4ujAh1EGjNJpd1cYcgmbe7IKPWfBMp4Yr\
        DRNCHjR4HtRVhgmhDhq8DuoKw4RQBw1eB0U3+ZgFzfzhie8EpuCZV7t8NzAFz/wdoQ7kWHT/840a969hD6kGH3IKyOy9XdWGDMEy\
        r3bBxyxo5i2N0cYcgmca0/ARC5ZptStsyEWQzHaGpwtzjyNYpo9OPGGYO54qaObVruJjFjzzapfvAqbgmQ2N8F3AFDTTatfDBXyz\
        27/f3cyLv93/9Vfn8+bTA/Lnf4U3P/7wk9vzq8323XJxcbNfzZvd9u4zOX/40us77OvNdrmYd/Pq6unmwL49v/sfz8f5Hx+8f/H7\
        64cPP9uu9+9uf32z364v7n7X5I78g4ev89uWvjer+fyyaWwQZs6/fxr8wdIPml4c/lz/9x+2/+v3uzj5enO1frH+br1fH3QtPqzm\
        y9Pl8cMP1qP9Z5yPx3d/efuvb+nt8LjrVteP3334/u4HeXFy/CX/5x/2f37g7Ojk+Pl6dTVfHnBWZ0f/AA==
        """)
    static let exportSize = 54_499
    static let exportCRC: UInt32 = 0x6F43_AA1B
    static let exportSteps = 30_150

    /// Raw deflate of a 4,058-byte GPX route with 40 points, CRC-32 0x119aee6e.
    static let routeDeflated = decode("""
        jZdBj9owEEbv/IrId0jGzsTxKmRv7bWqtlLVG6IpGxUSBG6h/74hVTfj0Wo0CIkAUR7v8PGU5vl+Oma/u8u1H4etgU1hsm7Yj9/7\
        4bA1X14+rGvz3K6aw/lOzwKT7S/dLo6Xrbn+GeJrF/u9yaZrDdeteY3x/JTnt9ttE8fzeLjsfvT3zX485R8/fc0hB9OusiZefrbN\
        sDt17efxV+yafD5+fHztDtMJ8xnnmB13cWvQbor5YbLj4yeU/9+2TXfsWig2RZM/jprYT1exhYV14daFfSmqp6KYnt+afP5qenlc\
        9n0ApgBHASgCnAoAzKBaACAagNIAmEGgABQBOgObGoBdAFY0sEoDmxrMQm8AFAE6A8cM6gXgRAOnNHCpgQUKQBGgMyhTA1sugFI0\
        KJUGJTPwFIAiQGeAqYEjS0bRAJUGmBo4RwEoAnQGFTMgS65Eg0ppUDGDQAEoAnQGPjUoyZK9aOCVBj41KJECUAToDGpmQJZciwa1\
        0qBODRAoAEWAziCkBkiWHESDoDQIzMBTAIoAlQGwJlfLkq3YZFA2GViTK0cBKAJ0BqzJ1bJkKzYZlE0G1uQqUACKAJ0Ba7JflmzF\
        JoOyycCa7JECUAToDFiT/bJkKzYZlE0G1uQaKABFgM6ANblelmzFJoOyycCaXHsKQBGgM2BNDmTJYpNB2WRgTQ6OAlAE6AxYkwNZ\
        sthkUDYZWJNDoAAUATqDtMlQkCWLTQZlkyFt8r8/1zcAigCdQc0MyJLFJoOyyZA2GQAoAEWAziBtMgBZsthkUDYZAjPwFIAi4D2D\
        +ehxyzwfTPfq+XSz3q7+Ag==
        """)
    static let routeSize = 4_058
    static let routeCRC: UInt32 = 0x119A_EE6E

    /// The same GPX route as a gzip file (member name "ride.gpx").
    static let routeGzip = decode("""
        H4sICAAAAAAC/3JpZGUuZ3B4AI2XQY/aMBBG7/yKyHdIxs7E8Spkb+21qrZS1RuiKRsVEgRuof++IVU349FqNAiJAFEe7/DxlOb5\
        fjpmv7vLtR+HrYFNYbJu2I/f++GwNV9ePqxr89yumsP5Ts8Ck+0v3S6Ol625/hniaxf7vcmmaw3XrXmN8fyU57fbbRPH83i47H70\
        981+POUfP33NIQfTrrImXn62zbA7de3n8Vfsmnw+fnx87Q7TCfMZ55gdd3Fr0G6K+WGy4+MnlP/ftk137FooNkWTP46a2E9XsYWF\
        deHWhX0pqqeimJ7fmnz+anp5XPZ9AKYARwEoApwKAMygWgAgGoDSAJhBoAAUAToDmxqAXQBWNLBKA5sazEJvABQBOgPHDOoF4EQD\
        pzRwqYEFCkARoDMoUwNbLoBSNCiVBiUz8BSAIkBngKmBI0tG0QCVBpgaOEcBKAJ0BhUzIEuuRINKaVAxg0ABKAJ0Bj41KMmSvWjg\
        lQY+NSiRAlAE6AxqZkCWXIsGtdKgTg0QKABFgM4gpAZIlhxEg6A0CMzAUwCKAJUBsCZXy5Kt2GRQNhlYkytHASgCdAasydWyZCs2\
        GZRNBtbkKlAAigCdAWuyX5ZsxSaDssnAmuyRAlAE6AxYk/2yZCs2GZRNBtbkGigARYDOgDW5XpZsxSaDssnAmlx7CkARoDNgTQ5k\
        yWKTQdlkYE0OjgJQBOgMWJMDWbLYZFA2GViTQ6AAFAE6g7TJUJAli00GZZMhbfK/P9c3AIoAnUHNDMiSxSaDssmQNhkAKABFgM4g\
        bTIAWbLYZFA2GQIz8BSAIuA9g/noccs8H0z36vl0s96u/gJu7poR2g8AAA==
        """)

    /// Raw deflate with one fixed-Huffman block of "hello hello hello fixed huffman".
    static let fixedBlock = decode("""
        y0jNyclXyEAi0zIrUlMUMkrT0nIT8wA=
        """)
}
