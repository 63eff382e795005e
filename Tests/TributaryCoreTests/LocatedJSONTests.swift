import Foundation
import Testing
import TributaryCore

@Suite struct LocatedJSONTests {
    private func parse(_ text: String) throws -> LocatedJSON {
        try LocatedJSON.parse(Data(text.utf8))
    }

    private func syntaxError(_ text: String) -> JSONSyntaxError? {
        syntaxError(Data(text.utf8))
    }

    private func syntaxError(_ data: Data) -> JSONSyntaxError? {
        do {
            _ = try LocatedJSON.parse(data)
            return nil
        } catch {
            return error
        }
    }

    @Test func everyValueKnowsItsLineAndColumn() throws {
        let root = try parse("{\n  \"a\": [1, {\"b\": null}]\n}")
        #expect(root.position == JSONPosition(line: 1, column: 1))
        let member = try #require(root.member("a"))
        #expect(member.keyPosition == JSONPosition(line: 2, column: 3))
        #expect(member.value.position == JSONPosition(line: 2, column: 8))
        let elements = try #require(member.value.elements)
        #expect(elements.map(\.position) == [JSONPosition(line: 2, column: 9), JSONPosition(line: 2, column: 12)])
        #expect(elements[1]["b"]?.position == JSONPosition(line: 2, column: 18))
        #expect(elements[1]["b"]?.value == .null)
    }

    @Test func convertsToJSONValue() throws {
        let root = try parse(#"{"s": "x", "n": -0.5e2, "t": true, "f": false, "z": null, "a": [1, "2"], "o": {}}"#)
        #expect(
            root.jsonValue
                == .object([
                    "s": .string("x"), "n": .number(-50), "t": .bool(true), "f": .bool(false), "z": .null,
                    "a": .array([.number(1), .string("2")]), "o": .object([:]),
                ])
        )
    }

    @Test func keepsMemberOrder() throws {
        let root = try parse(#"{"z": 1, "a": 2, "m": 3}"#)
        #expect(root.members?.map(\.key) == ["z", "a", "m"])
    }

    @Test func decodesEscapes() throws {
        let root = try parse(#"["\u00e9\ud83d\udcf0\n\"\\\/\t"]"#)
        #expect(root.elements?.first?.value == .string("é📰\n\"\\/\t"))
    }

    @Test func countsColumnsInCharactersNotBytes() {
        // 日本語のタイトル is 8 characters but 24 UTF-8 bytes; the missing comma is reported after them.
        let error = syntaxError("{\n  \"title\": \"日本語のタイトル\" \"sources\": []\n}")
        #expect(error?.position == JSONPosition(line: 2, column: 23))
        #expect(error?.detail == "expected ',' or '}' after object member, found '\"'")
        let emoji = syntaxError("[\"📰\" 1]")
        #expect(emoji?.position == JSONPosition(line: 1, column: 6))
        #expect(emoji?.detail == "expected ',' or ']' after array element, found '1'")
    }

    @Test func reportsMissingComma() {
        let error = syntaxError("{\n  \"title\": \"x\"\n  \"sources\": []\n}")
        #expect(
            error
                == JSONSyntaxError(
                    position: JSONPosition(line: 3, column: 3),
                    detail: "expected ',' or '}' after object member, found '\"'"
                )
        )
    }

    @Test func reportsTrailingCommaAtTheComma() {
        let object = syntaxError("{\n  \"sources\": [],\n}")
        #expect(
            object
                == JSONSyntaxError(
                    position: JSONPosition(line: 2, column: 16),
                    detail: "trailing comma before '}'; remove the comma"
                )
        )
        let array = syntaxError("[1, 2,]")
        #expect(
            array
                == JSONSyntaxError(
                    position: JSONPosition(line: 1, column: 6),
                    detail: "trailing comma before ']'; remove the comma"
                )
        )
    }

    @Test func reportsUnterminatedStringAtItsOpeningQuote() {
        let atEnd = syntaxError(#"{"title": "abc"#)
        #expect(atEnd?.position == JSONPosition(line: 1, column: 11))
        #expect(atEnd?.detail == "unterminated string: no closing '\"' before the end of the file")
        let atLineEnd = syntaxError("{\"title\": \"abc\n}")
        #expect(atLineEnd?.position == JSONPosition(line: 1, column: 11))
        #expect(atLineEnd?.detail == "unterminated string: no closing '\"' before the end of the line")
    }

    @Test func reportsBadLiteralAtItsStart() {
        let error = syntaxError(#"{"enabled": tru}"#)
        #expect(error?.position == JSONPosition(line: 1, column: 13))
        #expect(
            error?.detail == "invalid literal 'tru'; expected true, false, null, a number, or a string in double quotes"
        )
        #expect(syntaxError(#"{"a": True}"#)?.position == JSONPosition(line: 1, column: 7))
    }

    @Test func reportsControlCharacterInString() {
        let error = syntaxError("{\"title\": \"a\tb\"}")
        #expect(error?.position == JSONPosition(line: 1, column: 13))
        #expect(error?.detail.hasPrefix("control character U+0009 in string") == true)
    }

    @Test func reportsDuplicateKeyAtTheSecondKey() {
        let error = syntaxError(#"{"a": 1, "a": 2}"#)
        #expect(
            error
                == JSONSyntaxError(
                    position: JSONPosition(line: 1, column: 10),
                    detail: "duplicate key \"a\" (first at line 1, column 2); remove one"
                )
        )
    }

    @Test func acceptsDuplicateKeysOnlyWhenAsked() throws {
        let data = Data(#"{"a": 1, "b": {"a": 2, "a": 3}}"#.utf8)
        #expect(throws: JSONSyntaxError.self) { try LocatedJSON.parse(data) }
        let tree = try LocatedJSON.parse(data, allowsDuplicateKeys: true)
        #expect(tree.member("b")?.value.members?.map(\.key) == ["a", "a"])
    }

    @Test(arguments: [
        ("", 1, 1, "expected a JSON value, found the end of the file"),
        ("{} x", 1, 4, "unexpected 'x' after the end of the JSON value"),
        ("[01]", 1, 2, "numbers cannot start with a leading zero"),
        ("[-]", 1, 3, "expected a digit after '-'"),
        ("[1.]", 1, 4, "expected a digit after the decimal point"),
        ("[1e+]", 1, 5, "expected a digit in the exponent"),
        ("[1e999]", 1, 2, "number 1e999 is out of range"),
        ("{'a': 1}", 1, 2, "keys must be in double quotes, not single quotes"),
        ("{\"a\" 1}", 1, 6, "expected ':' after object key \"a\", found '1'"),
        ("{\"a\": 1 // note\n}", 1, 9, "expected ',' or '}' after object member, found '/'"),
        ("[// note\n]", 1, 2, "comments are not allowed in JSON"),
        ("[\"\\q\"]", 1, 3, "invalid escape '\\q' in string; use \\\\, \\\", \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX"),
        ("[\"\\ud83d\"]", 1, 3, "unpaired high surrogate \\uD83D in string"),
        ("[\"\\u12\"]", 1, 3, "\\u must be followed by four hex digits"),
        ("{\"a\": 1", 1, 8, "expected ',' or '}' after object member, found the end of the file"),
        ("[1\r2]", 2, 1, "expected ',' or ']' after array element, found '2'"),
        ("[1\r\n\r\n  2]", 3, 3, "expected ',' or ']' after array element, found '2'"),
    ])
    func reportsSyntaxErrorsAtExactPlaces(text: String, line: Int, column: Int, detail: String) {
        #expect(
            syntaxError(text) == JSONSyntaxError(position: JSONPosition(line: line, column: column), detail: detail)
        )
    }

    @Test func toleratesByteOrderMarkWithoutCountingIt() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let root = try LocatedJSON.parse(Data(bom + Array("{\"a\": 1}".utf8)))
        #expect(root.position == JSONPosition(line: 1, column: 1))
        #expect(root["a"]?.position == JSONPosition(line: 1, column: 7))
        let error = syntaxError(Data(bom + Array("{\r\n  \"a\": x}".utf8)))
        #expect(error?.position == JSONPosition(line: 2, column: 8))
    }

    @Test func rejectsInvalidUTF8() {
        let error = syntaxError(Data([UInt8(ascii: "\""), UInt8(ascii: "a"), 0xFF, UInt8(ascii: "\"")]))
        #expect(
            error
                == JSONSyntaxError(
                    position: JSONPosition(line: 1, column: 3),
                    detail: "invalid UTF-8 byte 0xFF; save the file as UTF-8"
                )
        )
        // An overlong encoding of '/' is not valid UTF-8 either.
        #expect(syntaxError(Data([UInt8(ascii: "\""), 0xC0, 0xAF, UInt8(ascii: "\"")]))?.column == 2)
    }

    @Test(arguments: [String.Encoding.utf16, .utf16BigEndian, .utf16LittleEndian, .utf32, .utf32LittleEndian])
    func refusesUTF16AndUTF32WithAFix(encoding: String.Encoding) throws {
        let data = try #require(#"{"a": 1}"#.data(using: encoding))
        #expect(
            syntaxError(data)
                == JSONSyntaxError(
                    position: JSONPosition(line: 1, column: 1),
                    detail: "the file is UTF-16 or UTF-32; save it as UTF-8"
                )
        )
    }

    @Test func failsCleanlyOnDeepNesting() {
        let error = syntaxError(String(repeating: "[", count: 10_000))
        #expect(
            error
                == JSONSyntaxError(
                    position: JSONPosition(line: 1, column: 513),
                    detail: "arrays and objects nest deeper than 512 levels"
                )
        )
        let objects = syntaxError(String(repeating: "{\"a\":", count: 10_000))
        #expect(objects?.detail == "arrays and objects nest deeper than 512 levels")
    }

    @Test func acceptsNestingUpToTheLimit() throws {
        let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        var value = try parse(text)
        var depth = 1
        while let inner = value.elements?.first {
            value = inner
            depth += 1
        }
        #expect(depth == 512)
        #expect(syntaxError("[" + text + "]") != nil)
    }
}
