#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Any property-list value, read without a schema so that a value of the wrong type can be reported by
/// key instead of failing the whole file. Read by `PropertyListParser`, which bounds what a hostile file
/// can cost.
package enum PropertyListValue: Sendable, Hashable {
    case string(String)
    case integer(Int)
    case real(Double)
    case boolean(Bool)
    case data(Data)
    case date(Date)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    /// Parses property-list bytes, XML or binary, whose top level is a dictionary.
    package static func dictionary(from bytes: [UInt8], limits: PropertyListLimits = PropertyListLimits()) throws(PropertyListError) -> [String: PropertyListValue] {
        let value = try PropertyListParser.parse(bytes, limits: limits)
        guard case .dictionary(let dictionary) = value else {
            throw PropertyListError("the top value is \(value.typeName), not a dictionary")
        }
        return dictionary
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
