import CLibXML2
import Foundation
import TributaryCore

/// Writing the markup inside an XHTML or HTML text construct back out as HTML.
extension FeedSAXHandler {
    func isXHTMLDiv(_ localName: UnsafePointer<xmlChar>, _ namespace: UnsafePointer<xmlChar>?) -> Bool {
        localName[0] == 0x64 && localName[1] == 0x69 && localName[2] == 0x76 && localName[3] == 0
    }

    static func isXHTMLNamespace(_ namespace: UnsafePointer<xmlChar>?) -> Bool {
        guard let namespace else { return false }
        return strcmp(UnsafeRawPointer(namespace).assumingMemoryBound(to: CChar.self), "http://www.w3.org/1999/xhtml")
            == 0
    }

    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]

    func appendStartTag(
        _ localName: UnsafePointer<xmlChar>,
        prefix: UnsafePointer<xmlChar>?,
        attributes: Attributes
    ) {
        // Plain text has no markup: child elements of a text element (an Atom 0.3 title's naked `<b>`) give only
        // their text.
        guard !truncated, captureType != .text, !capturesRSSTitle, text.count < options.maxTextBytes else { return }
        text.append(0x3C)
        appendName(localName, prefix: prefix)
        for index in 0..<attributes.count {
            guard let name = attributes.localName(at: index) else { continue }
            text.append(0x20)
            appendName(name, prefix: attributes.prefix(at: index))
            text.append(0x3D)
            text.append(0x22)
            var value = Array(attributes.value(at: index).utf8)
            if attributes.isURL(at: index) {
                let resolved = resolve(String(decoding: value, as: UTF8.self), baseCount: stack.last?.baseCount ?? 0)
                value = Array(resolved.utf8)
            }
            value.withUnsafeBufferPointer { text.appendEscaped($0, quotes: true) }
            text.append(0x22)
        }
        text.append(0x3E)
    }

    func appendEndTag(_ localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?) {
        guard !truncated, captureType != .text, !capturesRSSTitle, text.count < options.maxTextBytes else { return }
        if Self.voidElements.contains(String(cString: localName)) { return }
        text.append(0x3C)
        text.append(0x2F)
        appendName(localName, prefix: prefix)
        text.append(0x3E)
    }

    func appendName(_ name: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?) {
        if let prefix {
            var cursor = prefix
            while cursor.pointee != 0 {
                text.append(cursor.pointee)
                cursor += 1
            }
            text.append(0x3A)
        }
        var cursor = name
        while cursor.pointee != 0 {
            text.append(cursor.pointee)
            cursor += 1
        }
    }
}
