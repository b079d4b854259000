#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Any property-list value, decoded without a schema so that a value of the wrong type can be
/// reported by key instead of failing the whole file.
package enum PropertyListValue: Decodable, Sendable {
    case string(String)
    case integer(Int)
    case real(Double)
    case boolean(Bool)
    case data(Data)
    case date(Date)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String: PropertyListValue].self) {
            self = .dictionary(value)
        } else if let value = try? container.decode([PropertyListValue].self) {
            self = .array(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .real(value)
        } else if let value = try? container.decode(Date.self) {
            self = .date(value)
        } else {
            self = .data(try container.decode(Data.self))
        }
    }

    /// Parses property-list bytes, XML or binary, whose top level is a dictionary.
    package static func dictionary(from data: Data) throws -> [String: PropertyListValue] {
        try PropertyListDecoder().decode([String: PropertyListValue].self, from: data)
    }

    /// The name of the value's property-list type, for error messages.
    package var typeName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .real: "a real number"
        case .boolean: "a boolean"
        case .data: "data"
        case .date: "a date"
        case .array: "an array"
        case .dictionary: "a dictionary"
        }
    }
}
