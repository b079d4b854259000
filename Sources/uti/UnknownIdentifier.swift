import UniformTypeIdentifiers

/// What to say when a word given as a type identifier names no type: what the word is instead (an extension,
/// a MIME type, words of a description) and the command that takes it, so that `uti info jpeg` answers how
/// to ask.
enum UnknownIdentifier {
    /// `unknown type identifier 'jpeg'`, and a hint when the word is something else uti knows.
    static func message(_ word: String) -> String {
        var message = "unknown type identifier '\(word)'"
        let bare = word.hasPrefix(".") ? String(word.dropFirst()) : word
        if word.contains("/"), let type = TypeDatabase.shared.declaredTypes(tag: TypeQuery.withoutParameters(word), tagClass: .mimeType).first {
            message += ": '\(word)' is a MIME type, of \(type.identifier) (uti types --mime '\(word)')"
        } else if !bare.isEmpty, !bare.contains("/"), let type = TypeDatabase.shared.declaredTypes(tag: bare, tagClass: .filenameExtension).first {
            message += ": '\(word)' is a filename extension, of \(type.identifier) (uti types --extension \(bare))"
        } else if let type = (try? TypeQuery.types(words: [word]))?.first {
            message += ": types named so are found by uti types \(word) (the first: \(type.identifier))"
        }
        return message
    }
}
