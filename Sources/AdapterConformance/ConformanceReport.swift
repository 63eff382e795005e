/// Everything the conformance kit found wrong with one adapter on one fixture.
///
/// ``SourceConformance/check(_:fixture:options:)`` throws the report when it holds any violation, so a test fails
/// with every broken rule listed at once; ``SourceConformance/report(_:fixture:options:)`` returns it for tests
/// that look at the violations themselves.
public struct ConformanceReport: Error, Sendable, CustomStringConvertible {
    /// The adapter's kind.
    public var kind: String
    /// The fixture's name.
    public var fixture: String
    /// The violations, grouped by rule in rule order.
    public var violations: [ConformanceViolation]

    /// Creates a report.
    public init(kind: String, fixture: String, violations: [ConformanceViolation]) {
        self.kind = kind
        self.fixture = fixture
        self.violations = violations
    }

    /// Whether the adapter kept every rule the kit checks.
    public var isConforming: Bool { violations.isEmpty }

    /// The ids of the rules that were broken, each once, in rule order.
    public var brokenRules: [String] {
        var seen: Set<String> = []
        return violations.map(\.rule).filter { seen.insert($0).inserted }
    }

    public var description: String {
        guard !violations.isEmpty else { return "'\(kind)' on \(fixture): conforms to the Source rules" }
        let lines = violations.map { "  - \($0.rule): \($0.detail)" }
        return
            "'\(kind)' on \(fixture): \(violations.count) violation\(violations.count == 1 ? "" : "s") of the Source rules (see the doc comment on Source):\n"
            + lines.joined(separator: "\n")
    }
}
