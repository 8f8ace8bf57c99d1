import DemoData
import Foundation
import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

/// Serves its bytes a few at a time, so every token crosses window refills.
final class TrickleByteSource: ByteSource {
    private let bytes: [UInt8]
    private var position = 0
    private var rng: SplitMix64

    init(_ bytes: [UInt8], seed: UInt64 = 1) {
        self.bytes = bytes
        rng = SplitMix64(seed: seed)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - position, Int.random(in: 1...7, using: &rng))
        guard count > 0 else { return 0 }
        for i in 0..<count { buffer[i] = bytes[position + i] }
        position += count
        return count
    }
}

/// A flat transcript of reader events, for compact assertions.
func transcript(_ xml: String, trickle: Bool = false) throws -> [String] {
    let bytes = Array(xml.utf8)
    let source: any ByteSource = trickle ? TrickleByteSource(bytes) : MemoryByteSource(bytes)
    let reader = XMLPullReader(source: source, fileName: "test.xml")
    var out: [String] = []
    while true {
        switch try reader.next() {
        case .startElement:
            let uri = reader.namespaceURI.isEmpty ? "" : "{\(reader.namespaceURI)}"
            var attributes = reader.attributes.map { attribute -> String in
                let name = String(decoding: UnsafeBufferPointer(start: reader.window.bytes + attribute.nameStart,
                                                                count: attribute.nameEnd - attribute.nameStart), as: UTF8.self)
                return "\(name)=\(reader.value(of: attribute))"
            }
            attributes.sort()
            out.append("<\(uri)\(reader.localName)" + (attributes.isEmpty ? "" : " " + attributes.joined(separator: " ")) + ">")
        case .endElement:
            out.append("</\(reader.localName)>")
        case .text:
            out.append("'\(reader.text)'")
        case .endOfDocument:
            return out
        }
    }
}

@Suite struct XMLPullReaderTests {
    @Test(arguments: [false, true])
    func entitiesAndCharacterReferences(trickle: Bool) throws {
        let events = try transcript("<a t=\"&lt;&amp;&gt;&quot;&apos;\">x &amp; y &#65;&#x42;&#x1F600; &unknown; &#0;</a>", trickle: trickle)
        #expect(events == ["<a t=<&>\"'>", "'x & y AB😀 &unknown; \u{FFFD}'", "</a>"])
    }

    @Test(arguments: [false, true])
    func cdataCommentsAndProcessingInstructions(trickle: Bool) throws {
        let xml = "<?xml version=\"1.0\"?><!-- c <a> --><r><?pi <x>?><![CDATA[<not a tag> & ]] ]]><!-- in --></r><!-- after -->"
        #expect(try transcript(xml, trickle: trickle) == ["<r>", "'<not a tag> & ]] '", "</r>"])
    }

    @Test(arguments: [false, true])
    func doctypeWithInternalSubset(trickle: Bool) throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- a comment with ] and > and ' inside -->
        <!ELEMENT HealthData (Record*)>
        <!ATTLIST Record value CDATA "a]>b">
        <!ENTITY note 'x > y ] z'>
        ]>
        <HealthData><Record value="1"/></HealthData>
        """
        #expect(try transcript(xml, trickle: trickle) == ["<HealthData>", "<Record value=1>", "</Record>", "</HealthData>"])
    }

    @Test(arguments: [false, true])
    func attributesWithBothQuoteKinds(trickle: Bool) throws {
        let xml = "<p a='single \"q\"' b=\"double 'q'\"   c = 'spaced' d='a>b'/>"
        #expect(try transcript(xml, trickle: trickle) == ["<p a=single \"q\" b=double 'q' c=spaced d=a>b>", "</p>"])
    }

    @Test(arguments: [false, true])
    func namespacesResolveByURI(trickle: Bool) throws {
        let xml = """
        <root xmlns="urn:default" xmlns:a="urn:A">
          <a:x><y xmlns="urn:inner"><a:z xmlns:a="urn:A2"/></y></a:x><w/>
        </root>
        """
        let events = try transcript(xml, trickle: trickle)
        #expect(events == ["<{urn:default}root xmlns:a=urn:A xmlns=urn:default>", "<{urn:A}x>",
                           "<{urn:inner}y xmlns=urn:inner>", "<{urn:A2}z xmlns:a=urn:A2>", "</z>", "</y>", "</x>",
                           "<{urn:default}w>", "</w>", "</root>"])
    }

    @Test func namespacedAttributeLookup() throws {
        let reader = XMLPullReader(source: MemoryByteSource(Array("<r xmlns:p=\"urn:p\" p:k=\"1\" k=\"2\"/>".utf8)), fileName: "t")
        #expect(try reader.next() == .startElement)
        #expect(reader.attribute(local: "k", namespace: "urn:p") == "1")
        #expect(reader.attribute(XMLKey("k")) == "2")
        #expect(reader.attribute(local: "k", namespace: "") == "2")
    }

    @Test func malformedDocumentsReportLineAndColumn() throws {
        let mismatched = workoutError { _ = try transcript("<a>\n  <b></c>\n</a>") }
        #expect(mismatched?.code == .malformedXML)
        #expect(mismatched?.line == 2 && mismatched?.column == 6)
        let truncated = workoutError { _ = try transcript("<a><b>text") }
        #expect(truncated?.code == .truncated)
        #expect(workoutError { _ = try transcript("<a/>junk") }?.code == .malformedXML)
        #expect(workoutError { _ = try transcript("<a/><b/>") }?.code == .malformedXML)
        #expect(workoutError { _ = try transcript("<a b=\"1></a>") }?.code == .malformedXML)
        #expect(workoutError { _ = try transcript("<a b=1/>") }?.code == .malformedXML)
        #expect(workoutError { _ = try transcript("") }?.code == .malformedXML)
        #expect(workoutError { _ = try transcript("<!-- never closed") }?.code == .truncated)
    }

    @Test func byteOrderMarks() throws {
        #expect(try transcript("\u{FEFF}<a>x</a>") == ["<a>", "'x'", "</a>"])
        let utf16 = [UInt8]("<a/>".data(using: .utf16LittleEndian)!)
        let error = workoutError {
            let reader = XMLPullReader(source: MemoryByteSource([0xFF, 0xFE] + utf16), fileName: "u16.xml")
            _ = try reader.next()
        }
        #expect(error?.code == .unsupported)
    }

    @Test func depthIsBounded() throws {
        let deep = String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300)
        #expect(workoutError { _ = try transcript(deep) }?.code == .limitExceeded)
    }

    @Test func whitespaceOnlyTextIsNotReported() throws {
        #expect(try transcript("<a>\n  <b> x </b>\n</a>") == ["<a>", "<b>", "' x '", "</b>", "</a>"])
    }

    @Test(arguments: ["run.gpx", "tracks-1.0.gpx", "route.gpx", "run.tcx", "ski.tcx", "export.xml"])
    func generatedFilesGiveTheSameEventsWhenTrickled(_ name: String) throws {
        let text = String(decoding: try SampleCatalogue.file(named: name).bytes, as: UTF8.self)
        #expect(try transcript(text) == transcript(text, trickle: true))
    }
}
