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
                if HTMLPolicy.droppedWithContent.contains(name), !HTMLPolicy.droppedVoidElements.contains(name) {
                    continue
                }
                if HTMLPolicy.allowedElements.contains(name), depth < options.maximumDepth,
                    let attributes = attributes(of: node, element: name)
                {
                    let isVoid = HTMLPolicy.voidElements.contains(name)
                    emitter.start(name, attributes: attributes, isVoid: isVoid)
                    if !isVoid {
                        depth += 1
                        stack.append(Frame(next: node.pointee.children, element: name, unwrapped: nil))
                    }
                } else if !HTMLPolicy.voidElements.contains(name) {
                    emitter.unwrapped(name, starts: true)
                    stack.append(Frame(next: node.pointee.children, element: nil, unwrapped: name))
                }
            default:
                // Comments, processing instructions, DTD nodes: dropped.
                continue
            }
        }
    }

    // MARK: - Private

    /// The attributes `element` keeps, checked; `nil` when the element itself must be dropped (an image without a
    /// usable source, or any image when images are not kept).
    private func attributes(of node: xmlNodePtr, element: String) -> [(name: String, value: String)]? {
        var kept: [(name: String, value: String)] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            attribute = current.pointee.next
            guard let rawName = current.pointee.name else { continue }
            let name = String(cString: rawName).lowercased()
            guard let rule = HTMLPolicy.rule(for: name, on: element), !kept.contains(where: { $0.name == name })
            else { continue }
            if let value = check(value(of: current), rule: rule) { kept.append((name, value)) }
        }
        switch element {
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
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        switch rule {
        case .url:
            return URLPolicy.clean(value, base: base)
        case .text:
            return value
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
