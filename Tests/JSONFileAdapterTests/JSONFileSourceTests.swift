import Foundation
import JSONFileAdapter
import Testing
import TributaryCore

@Suite struct JSONFileSourceTests {
    @Test func kindIsJSONFile() {
        #expect(JSONFileSource.kind == "json-file")
    }
}
