import TributaryCore

/// GeoRSS locations (simple `georss:point`, `line`, `polygon`, `box` and GML `Point`, `LineString`, `Polygon`) as
/// GeoJSON geometries, read as feedparser reads them: coordinates written latitude first become GeoJSON's
/// longitude first, unless a GML `srsName` names an EPSG system that is not geographic (a UTM grid keeps its
/// order); `srsDimension="3"` adds the height. A geometry with too few numbers is no geometry.
enum Geometry {
    /// A GML geometry's coordinate reference: whether to swap to longitude first, and 2 or 3 numbers a position.
    struct Reference: Sendable {
        var swap = true
        var dimension = 2

        init(srsName: String?, dimension: String?) {
            if let srsName, srsName.contains("EPSG"), let code = srsName.split(separator: ":").last.flatMap({ Int($0) })
            {
                swap = Self.isGeographic(code)
            }
            self.dimension = dimension.flatMap { Int($0.filter { !$0.isWhitespace }) } == 3 ? 3 : 2
        }

        /// EPSG's geographic (latitude, longitude) systems: 4001 to 4999 (4326 is WGS 84, 4979 its 3D form) and
        /// the few below 4000 feedparser lists.
        private static func isGeographic(_ code: Int) -> Bool {
            (4001...4999).contains(code) || [3819, 3821, 3824, 3889, 3906].contains(code)
        }
    }

    /// The geometry of a simple GeoRSS element.
    static func georss(_ kind: ElementKind, _ text: String) -> JSONValue? {
        let points = positions(text, Reference(srsName: nil, dimension: nil))
        switch kind {
        case .georssPoint:
            return points.first.map { shape("Point", .array($0)) }
        case .georssLine:
            return points.count >= 2 ? shape("LineString", .array(points.map(JSONValue.array))) : nil
        case .georssPolygon:
            // A ring of at least four positions, the last repeating the first.
            return points.count >= 4 ? shape("Polygon", .array([.array(points.map(JSONValue.array))])) : nil
        case .georssBox:
            return points.count == 2 ? shape("Box", .array(points.map(JSONValue.array))) : nil
        default:
            return nil
        }
    }

    /// The geometry of a GML `pos` or `posList` inside the shape `shape`.
    static func gml(_ shape: ElementKind?, _ text: String, _ reference: Reference) -> JSONValue? {
        let points = positions(text, reference)
        switch shape {
        case .gmlPoint:
            return points.first.map { Self.shape("Point", .array($0)) }
        case .gmlLineString:
            return points.count >= 2 ? Self.shape("LineString", .array(points.map(JSONValue.array))) : nil
        case .gmlPolygon:
            return points.count >= 4 ? Self.shape("Polygon", .array([.array(points.map(JSONValue.array))])) : nil
        default:
            return nil
        }
    }

    private static func shape(_ type: String, _ coordinates: JSONValue) -> JSONValue {
        .object(["type": .string(type), "coordinates": coordinates])
    }

    /// The positions of a coordinate list (numbers separated by white space or commas), each longitude first when
    /// `reference` says to swap (an incomplete last position is dropped, as feedparser drops it); empty when a
    /// number does not read.
    private static func positions(_ text: String, _ reference: Reference) -> [[JSONValue]] {
        var numbers: [Double] = []
        for word in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
            guard let number = Double(word), number.isFinite else { return [] }
            numbers.append(number)
        }
        let count = numbers.count / reference.dimension
        return (0..<count).map { index in
            let start = index * reference.dimension
            var position = Array(numbers[start..<(start + reference.dimension)])
            if reference.swap { position.swapAt(0, 1) }
            return position.map(JSONValue.number)
        }
    }
}
