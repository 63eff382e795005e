import CLibXML2
import Foundation

/// Walks libxml2's tree without recursion (the depth of the input costs heap, not stack) and hands what the
/// policy keeps to a ``TreeEmitter``.
struct TreeWalker {
    let options: HTMLSanitizer.Options
    let base: URL?

    private struct Frame {
        var next: xmlNodePtr?
        /// The end tag to write when the frame is done; `nil` for an unwrapped element.
        var element: String?
        var unwrapped: String?
    }

    func walk<Emitter: TreeEmitter>(_ root: xmlNodePtr, into emitter: inout Emitter) {
        var stack = [Frame(next: root, element: nil, unwrapped: nil)]
        var depth = 0
        while !stack.isEmpty {
            guard let node = stack[stack.count - 1].next else {
                let frame = stack.removeLast()
                if let element = frame.element {
                    emitter.end(element)
                    depth -= 1
                } else if let name = frame.unwrapped {
                    emitter.unwrapped(name, starts: false)
                }
                continue
            }
            stack[stack.count - 1].next = node.pointee.next
            switch node.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = node.pointee.content { emitter.text(String(cString: content)) }
            case XML_ELEMENT_NODE:
                guard let rawName = node.pointee.name else { continue }
                let name = String(cString: rawName).lowercased()
                var attributes: [xmlAttrPtr] = []
                var attribute = node.pointee.properties
                while let current = attribute {
                    if current.pointee.name != nil { attributes.append(current) }
                    attribute = current.pointee.next
                }
                let decision = decide(
                    name,
                    depth: depth,
                    attributeNames: attributes.lazy.map { String(cString: $0.pointee.name).lowercased() },
                    value: { value(of: attributes[$0]) }
                )
                switch decision {
                case .drop, .nothing:
                    continue
                case .write(let kept, let isVoid):
                    emitter.start(name, attributes: kept, isVoid: isVoid)
                    if !isVoid {
                        depth += 1
                        stack.append(Frame(next: node.pointee.children, element: name, unwrapped: nil))
                    }
                case .unwrap:
                    emitter.unwrapped(name, starts: true)
                    stack.append(Frame(next: node.pointee.children, element: nil, unwrapped: name))
                }
            default:
                // Comments, processing instructions, DTD nodes: dropped.
                continue
            }
        }
    }

    /// What the policy does with an element.
    enum Decision {
        /// Drop it with everything inside it.
        case drop
        /// Write it with these checked attributes; a void element has no content and no end tag.
        case write([(name: String, value: String)], isVoid: Bool)
        /// Drop its tags and keep its content.
        case unwrap
        /// A void element that is not written: there is nothing to do.
        case nothing
    }

    /// What the policy does with the element `name` (lower case) found inside `depth` written elements, whose
    /// attributes are named `attributeNames` (lower case, in order) and whose decoded values `value` gives by
    /// position. Shared by this walker and ``SimpleFragmentReader``, so that both apply the same policy.
    func decide<Names: Collection<String>>(
        _ name: String,
        depth: Int,
        attributeNames: Names,
        value: (Int) -> String
    ) -> Decision where Names.Index == Int {
        decide(HTMLPolicy.Element.named(name), depth: depth, attributeNames: attributeNames, value: value)
    }

    /// ``decide(_:depth:attributeNames:value:)`` for an element already looked up.
    func decide<Names: Collection<String>>(
        _ element: HTMLPolicy.Element,
        depth: Int,
        attributeNames: Names,
        value: (Int) -> String
    ) -> Decision where Names.Index == Int {
        if element.dropsContent { return .drop }
        if element.isAllowed, depth < options.maximumDepth,
            let kept = keptAttributes(of: element, names: attributeNames, value: value)
        {
            return .write(kept, isVoid: element.isVoid)
        }
        return element.isVoid ? .nothing : .unwrap
    }

    // MARK: - Private

    /// The attributes `element` keeps, checked; `nil` when the element itself must be dropped (an image without a
    /// usable source, or any image when images are not kept).
    private func keptAttributes<Names: Collection<String>>(
        of element: HTMLPolicy.Element,
        names: Names,
        value: (Int) -> String
    ) -> [(name: String, value: String)]? where Names.Index == Int {
        var kept: [(name: String, value: String)] = []
        for (index, name) in zip(names.indices, names) {
            guard let rule = element.rule(for: name), !kept.contains(where: { $0.name == name }) else { continue }
            if let value = check(value(index), rule: rule) { kept.append((name, value)) }
        }
        switch element.name {
        case "img":
            guard options.keepsImages, kept.contains(where: { $0.name == "src" }) else { return nil }
        case "a" where kept.contains(where: { $0.name == "href" }):
            kept.append(("rel", "noopener noreferrer"))
            kept.append(("target", "_blank"))
        default:
            break
        }
        return kept
    }

    /// The decoded value of an attribute: the text of its children (libxml2 decoded the references).
    private func value(of attribute: xmlAttrPtr) -> String {
        var result = ""
        var child = attribute.pointee.children
        while let node = child {
            if let content = node.pointee.content { result += String(cString: content) }
            child = node.pointee.next
        }
        return result
    }

    private func check(_ value: String, rule: HTMLPolicy.Rule) -> String? {
        if case .url = rule { return URLPolicy.clean(value, base: base) }
        if case .text = rule { return value }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        switch rule {
        case .url, .text:
            return nil  // answered above, without trimming
        case .digits(let maximum):
            guard !trimmed.isEmpty, trimmed.count <= maximum, trimmed.allSatisfy(\.isASCII),
                trimmed.allSatisfy(\.isNumber)
            else { return nil }
            return trimmed
        case .integer:
            let digits = trimmed.hasPrefix("-") ? String(trimmed.dropFirst()) : trimmed
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber)
            else { return nil }
            return trimmed
        case .oneOf(let values):
            let lowered = trimmed.lowercased()
            return values.contains(lowered) ? lowered : nil
        case .exactly(let values):
            return values.contains(trimmed) ? trimmed : nil
        case .languageTag:
            guard !trimmed.isEmpty, trimmed.count <= 35,
                trimmed.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
            else { return nil }
            return trimmed
        case .dateTime:
            guard !trimmed.isEmpty, trimmed.count <= 64,
                trimmed.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ":.+- ".contains($0)) })
            else { return nil }
            return trimmed
        case .boolean:
            return ""
        }
    }
}
