/// One way an adapter broke a rule written on the `Source` protocol.
public struct ConformanceViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule's id as the `Source` doc comment numbers it: `"SRC-1"` … `"SRC-12"`.
    public var rule: String
    /// What the kit saw, naming the item, event or timing involved.
    public var detail: String
    /// The fixture the run read, when there was one.
    public var fixture: String?

    /// Creates a violation.
    public init(rule: String, detail: String, fixture: String? = nil) {
        self.rule = rule
        self.detail = detail
        self.fixture = fixture
    }

    public var description: String {
        "\(rule)\(fixture.map { " [\($0)]" } ?? ""): \(detail)"
    }
}
