import Foundation
import LogbookInput
import Testing

/// Integers in request bodies read by JSONSerialization: Foundation bridges the numbers 0 and 1
/// to Bool, so `value is Bool` refused them; only a JSON `true`/`false` is a boolean.
@Suite("Request body integers")
struct RequestBodyIntegerTests {
    private func value(_ json: String) throws -> Any {
        try #require((try JSONSerialization.jsonObject(with: Data(#"{"v":\#(json)}"#.utf8)) as? [String: Any])?["v"])
    }

    @Test("0 and 1 are integers, true and false are not, nor fractions")
    func integers() throws {
        #expect(EventBody.integer(try value("0")) == 0)
        #expect(EventBody.integer(try value("1")) == 1)
        #expect(EventBody.integer(try value("-7")) == -7)
        #expect(EventBody.integer(try value("true")) == nil)
        #expect(EventBody.integer(try value("false")) == nil)
        #expect(EventBody.integer(try value("1.5")) == nil)
        #expect(EventBody.integer(try value(#""1""#)) == nil)
    }

    @Test("a plan's long run on Monday (ISO weekday 1) is taken; true is refused")
    func mondayLongRun() throws {
        let plan = try EventBody.planRequest(Data(#"{"targetId":"t-1","daysPerWeek":3,"longRunDay":1}"#.utf8))
        #expect(plan.longRunDay == 1)
        #expect(throws: InputError.self) { try EventBody.planRequest(Data(#"{"targetId":"t-1","daysPerWeek":3,"longRunDay":true}"#.utf8)) }
    }
}
