import ArgumentParser
import Testing
import TributaryCLI

@Suite struct CommandParsingTests {
    @Test func rootCommandParsesWithoutArguments() throws {
        _ = try TributaryCommand.parseAsRoot([])
    }
}
