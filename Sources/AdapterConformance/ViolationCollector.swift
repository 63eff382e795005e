/// Gathers violations for one report: drops exact repeats and caps how many each rule reports.
struct ViolationCollector {
    private let fixture: String
    private let limit: Int
    private var violations: [ConformanceViolation] = []
    private var seen: Set<String> = []
    private var overflow: [String: Int] = [:]

    init(fixture: String, limit: Int) {
        self.fixture = fixture
        self.limit = max(1, limit)
    }

    /// Records a violation of `rule`.
    mutating func add(_ rule: String, _ detail: String) {
        guard seen.insert("\(rule)\u{0}\(detail)").inserted else { return }
        if violations.count(where: { $0.rule == rule }) >= limit {
            overflow[rule, default: 0] += 1
        } else {
            violations.append(ConformanceViolation(rule: rule, detail: detail, fixture: fixture))
        }
    }

    /// Whether any violation of `rule` was recorded.
    func contains(_ rule: String) -> Bool {
        violations.contains { $0.rule == rule }
    }

    /// The violations in rule order (SRC-1 before SRC-2 … SRC-12), each rule's in the order found.
    var sorted: [ConformanceViolation] {
        var result = violations
        for (rule, count) in overflow {
            result.append(
                ConformanceViolation(
                    rule: rule,
                    detail: "and \(count) more violation\(count == 1 ? "" : "s") of this rule",
                    fixture: fixture
                )
            )
        }
        let order = { (rule: String) -> Int in Int(rule.split(separator: "-").last ?? "") ?? Int.max }
        return result.enumerated()
            .sorted { lhs, rhs in
                let (left, right) = (order(lhs.element.rule), order(rhs.element.rule))
                return left == right ? lhs.offset < rhs.offset : left < right
            }
            .map(\.element)
    }
}
