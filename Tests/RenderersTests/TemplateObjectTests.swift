import Testing

@testable import Renderers

/// The values of a template's object: found, replaced and removed by name as a dictionary's would be.
@Suite struct TemplateObjectTests {
    @Test func valuesAreFoundReplacedAndRemovedByName() {
        var object: TemplateObject = ["title": .text("One"), "href": .flag(false)]
        #expect(object["title"] == .text("One"))
        #expect(object["missing"] == nil)
        object["href"] = .text("https://example.com/")
        object["count"] = .number(2)
        #expect(object["href"] == .text("https://example.com/"))
        #expect(object.count == 3)
        object["title"] = nil
        #expect(object["title"] == nil)
        #expect(object.members.map(\.0.name) == ["href", "count"])
        // A name is the whole name: neither a prefix nor a longer name finds it.
        #expect(object["coun"] == nil && object["counts"] == nil)
    }

    @Test func objectsWithTheSameValuesInAnotherOrderAreEqual() {
        let one: TemplateObject = ["a": .number(1), "b": .text("x")]
        let other: TemplateObject = ["b": .text("x"), "a": .number(1)]
        #expect(one == other)
        #expect(one != ["a": .number(1), "b": .text("y")])
        #expect(one != ["a": .number(1)])
        #expect(one != ["a": .number(1), "c": .text("x")])
    }

    @Test func keysOfTheSameNameAreEqualAndOthersAreNot() {
        #expect(TemplateKey("entries") == "entries")
        #expect(TemplateKey("entries").hash == TemplateKey(String("entries".reversed().reversed())).hash)
        #expect(TemplateKey("entries") != "entry")
        #expect(Set(["id", "title", "href", "isNew", "time", "dateISO"].map { TemplateKey($0).hash }).count == 6)
    }
}
