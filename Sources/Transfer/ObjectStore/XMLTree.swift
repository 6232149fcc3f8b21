import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An XML document read whole into elements (S3 answers are small: a listing page is at most 1,000 keys).
/// External entities and DTDs are not resolved, so a hostile answer cannot make the parser read files or grow.
package struct XMLTree: Sendable {
    /// One element: its name without namespace prefix, its text, its children in order.
    package struct Element: Sendable {
        /// The local name.
        package var name: String
        /// The text directly inside it, untrimmed.
        package var text: String
        /// Child elements in document order.
        package var children: [Element]

        /// The first child with this name.
        package func child(_ name: String) -> Element? { children.first { $0.name == name } }
        /// Every child with this name.
        package func children(_ name: String) -> [Element] { children.filter { $0.name == name } }
        /// The text of the first child with this name.
        package func text(of name: String) -> String? { child(name)?.text }
    }

    /// The document element.
    package let root: Element

    /// Parses `data`; nil when it is not well-formed XML.
    package init?(data: Data) {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        let builder = Builder()
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else { return nil }
        self.root = root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [Element] = []
        var root: Element?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            stack.append(Element(name: local, text: "", children: []))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
        }
    }
}
