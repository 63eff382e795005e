/// What can be told about an item that failed to decode: its id and title, when they are readable.
struct ItemLabel: Decodable {
    var id: String?
    var title: String?

    init() {}

    init(from decoder: any Decoder) {
        guard let container = try? decoder.container(keyedBy: MemberKey.self) else { return }
        let idKey = MemberKey("id")
        if let string = try? container.decode(String.self, forKey: idKey) {
            id = string
        } else if let number = try? container.decode(Int64.self, forKey: idKey) {
            id = String(number)
        }
        title = try? container.decode(String.self, forKey: MemberKey("title"))
    }

    /// ` (id "x")`, ` ("Title")` or nothing, to append to "item 3".
    var suffix: String {
        if let id, !id.isEmpty { return " (id \"\(id)\")" }
        if let title, !title.isEmpty { return " (\"\(title)\")" }
        return ""
    }
}
