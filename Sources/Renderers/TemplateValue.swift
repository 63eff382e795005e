/// What one key of the HTML template context holds, so that a template can be checked against the keys that
/// exist before it runs (Mustache itself renders an unknown key as nothing).
indirect enum TemplateValue: Sendable, Equatable {
    /// A string, already free of control characters; `false` when an optional value is missing.
    case text
    /// `true` or `false`, for `{{#key}}` and `{{^key}}`.
    case flag
    /// An integer.
    case number
    /// A list of strings, each written as `{{.}}` inside `{{#key}}...{{/key}}`.
    case texts
    /// A list of objects with these keys.
    case list([String: TemplateValue])

    /// How messages describe the value.
    var kindName: String {
        switch self {
        case .text: "text"
        case .flag: "true or false"
        case .number: "a number"
        case .texts: "a list of text"
        case .list: "a list"
        }
    }
}
