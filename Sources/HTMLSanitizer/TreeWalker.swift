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
        var attributes = StartTagAttributes()
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
                Self.read(node.pointee.properties, into: &attributes)
                let decision = decide(name, depth: depth, attributes: attributes)
                switch decision {
                case .drop:
                    continue
                case .nothing:
                    // A void element that libxml2 (an HTML 4 parser) does not know as void, `wbr` among them, holds
                    // the markup after it; a browser shows that after it, and so does the digest.
                    if let children = node.pointee.children {
                        stack.append(Frame(next: children, element: nil, unwrapped: nil))
                    }
                case .write(let kept, let isVoid):
                    emitter.start(name, attributes: kept, isVoid: isVoid)
                    if !isVoid {
                        depth += 1
                        stack.append(Frame(next: node.pointee.children, element: name, unwrapped: nil))
                    } else if let children = node.pointee.children {
                        stack.append(Frame(next: children, element: nil, unwrapped: nil))
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

    /// What the policy does with the element `name` (lower case) found inside `depth` written elements, with the
    /// attributes of its start tag.
    func decide(_ name: String, depth: Int, attributes: StartTagAttributes) -> Decision {
        let element = HTMLPolicy.Element.named(name)
        var kept: [KeptAttribute] = []
        switch decide(element, depth: depth, attributes: attributes, keeping: &kept) {
        case .drop: return .drop
        case .unwrap: return .unwrap
        case .nothing: return .nothing
        case .write:
            let written = attributes.withNamesAndValues { _, value in
                kept.map { attribute in
                    switch attribute.value {
                    case .asRead(let position):
                        (name: attribute.name(of: element), value: String(decoding: value(position), as: UTF8.self))
                    case .checked(let checked):
                        (name: attribute.name(of: element), value: checked)
                    }
                }
            }
            return .write(written, isVoid: element.isVoid)
        }
    }

    /// What the policy does with an element, without the attributes it keeps (those are passed on their own).
    enum Verdict {
        case drop, write, unwrap, nothing
    }

    /// One attribute the policy keeps.
    struct KeptAttribute {
        /// A position in ``HTMLPolicy/Element/attributes``, or one of the attributes every link gets.
        /// The value to write.
        enum Value {
            /// The value as read: the start tag's attribute at this position passed its check unchanged.
            case asRead(Int)
            /// A value the check produced (a resolved URL, a trimmed number).
            case checked(String)
        }

        /// The attribute's position in the element's policy (``HTMLPolicy/Element/attributes``).
        var index: Int
        var value: Value

        /// The attribute's name.
        func name(of element: HTMLPolicy.Element) -> String {
            element.attributes[index].name
        }
    }

    /// What the policy does with `element`, found inside `depth` written elements, whose start tag had
    /// `attributes`; when it is written, `kept` holds the attributes it keeps, checked, in order. Shared by this
    /// walker and ``SimpleFragmentReader``, so that both apply the same policy.
    func decide(
        _ element: HTMLPolicy.Element,
        depth: Int,
        attributes: StartTagAttributes,
        keeping kept: inout [KeptAttribute]
    ) -> Verdict {
        if element.dropsContent { return .drop }
        kept.removeAll(keepingCapacity: true)
        if element.isAllowed, depth < options.maximumDepth, keptAttributes(of: element, attributes, into: &kept) {
            return .write
        }
        return element.isVoid ? .nothing : .unwrap
    }

    // MARK: - Private

    /// Reads the attributes of an element of libxml2's tree: their names, and their values, the text of their
    /// children (libxml2 decoded the references).
    private static func read(_ first: xmlAttrPtr?, into attributes: inout StartTagAttributes) {
        attributes.removeAll()
        var attribute = first
        while let current = attribute {
            attribute = current.pointee.next
            guard let name = current.pointee.name else { continue }
            attributes.startAttribute(named: UnsafeBufferPointer(start: name, count: strlen(name)))
            var child = current.pointee.children
            while let node = child {
                if let content = node.pointee.content {
                    attributes.appendToValue(UnsafeBufferPointer(start: content, count: strlen(content)))
                }
                child = node.pointee.next
            }
        }
    }

    /// Puts the attributes `element` keeps in `kept`, checked; `false` when the element itself must be dropped (an
    /// image without a usable source, or any image when images are not kept).
    private func keptAttributes(
        of element: HTMLPolicy.Element,
        _ attributes: StartTagAttributes,
        into kept: inout [KeptAttribute]
    ) -> Bool {
        // Which of the element's attributes are kept: a later attribute of the same name is ignored, unless the
        // earlier one failed its check.
        var keptMask: UInt64 = 0
        attributes.withNamesAndValues { name, value in
            for position in 0..<attributes.count {
                guard let index = element.attributeIndex(named: name(position)), keptMask & (1 << index) == 0,
                    let checked = check(value(position), at: position, rule: element.attributes[index].rule)
                else { continue }
                keptMask |= 1 << index
                kept.append(KeptAttribute(index: index, value: checked))
            }
        }
        if element.name == "img" {
            guard options.keepsImages, let source = element.sourceIndex, keptMask & (1 << source) != 0 else {
                return false
            }
        }
        return true
    }

    /// The value to write for the attribute at `position`, whose decoded value is `value`, or `nil` to drop it.
    private func check(
        _ value: UnsafeBufferPointer<UInt8>,
        at position: Int,
        rule: HTMLPolicy.Rule
    ) -> KeptAttribute.Value? {
        switch rule {
        case .text:
            return .asRead(position)
        case .url:
            if URLPolicy.isKeptAsWritten(value) { return .asRead(position) }
            return URLPolicy.clean(String(decoding: value, as: UTF8.self), base: base).map { .checked($0) }
        default:
            let string = String(decoding: value, as: UTF8.self)
            guard let checked = check(string, rule: rule) else { return nil }
            return checked == string ? .asRead(position) : .checked(checked)
        }
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
