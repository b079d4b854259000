extension StringProtocol {
    /// The text without the characters at either end that `isTrimmed` holds for (Foundation's
    /// `trimmingCharacters(in:)` is not in FoundationEssentials): the one trim of the libraries.
    package func trimming(while isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(self[first...last])
    }
}
