import Testing
import TributaryCore

@Suite struct ConfigurationErrorTests {
    @Test func descriptionLeavesOutUnknownParts() {
        #expect(
            ConfigurationError(file: "feeds.json", reason: .fileNotFound).description
                == "feeds.json: no such file; create it or name another with -c"
        )
        #expect(
            ConfigurationError(file: "a/feeds.json", line: 4, reason: .syntax("x")).description
                == "a/feeds.json:4: invalid JSON: x"
        )
        #expect(
            ConfigurationError(file: "f", line: 1, column: 2, sourceID: "s", reason: .adapterError("boom")).description
                == "f:1:2: source 's': boom"
        )
    }

    @Test func invalidIDSuggestsASlug() {
        #expect(
            ConfigurationError(file: "f", key: "id", reason: .invalidID("  NHK / World!! ")).message
                == "invalid id '  NHK / World!! '; use only lower-case letters, digits and '-', e.g. 'nhk-world'"
        )
        #expect(
            ConfigurationError(file: "f", key: "id", reason: .invalidID("")).message
                == "invalid id ''; use only lower-case letters, digits and '-'"
        )
    }

    @Test func errorsAreSortedByPlaceAndPrintedOnePerLine() {
        let errors = ConfigurationErrors([
            ConfigurationError(file: "f", line: 9, column: 1, reason: .invalidDuration("x")),
            ConfigurationError(file: "f", line: 2, column: 7, reason: .invalidDuration("y")),
            ConfigurationError(file: "f", line: 2, column: 3, reason: .invalidDuration("z")),
        ])
        #expect(errors.errors.map(\.line) == [2, 2, 9])
        #expect(errors.errors.map(\.column) == [3, 7, 1])
        #expect(errors.description.split(separator: "\n").map { $0.prefix(6) } == ["f:2:3:", "f:2:7:", "f:9:1:"])
    }
}
