import Testing
import UniformTypeIdentifiers
@testable import FileIdentification

/// The filters that spare a name's lookups (`NameMatching.TagFilter`) never hide a tag: every whole name and every
/// multi-dot suffix the database declares, as it is and in ASCII capitals, still finds its type.
@Suite("A name's lookups, filtered")
struct NameFilterTests {
    private func asciiUppercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    @Test("every whole name and multi-dot suffix of the database, in either case, finds its type")
    func everyTagIsFound() {
        var names = 0, suffixes = 0
        for type in TypeDatabase.shared.types(havingTagClass: .filename) {
            for tag in type.tags(of: .filename) {
                for name in [tag, asciiUppercased(tag)] {
                    let evidence = NameMatching.evidence(for: name)
                    #expect(evidence?.match == .filename && evidence?.candidates.contains(type) == true, "\(name)")
                }
                names += 1
            }
        }
        for type in TypeDatabase.shared.types(havingTagClass: .filenameSuffix) {
            for tag in type.tags(of: .filenameSuffix) {
                for name in ["x." + tag, "x." + asciiUppercased(tag)] {
                    let evidence = NameMatching.evidence(for: name)
                    // A whole name may claim it first (none does today); a suffix must be found as one.
                    #expect(evidence?.candidates.contains(type) == true, "\(name)")
                }
                suffixes += 1
            }
        }
        #expect(names > 400 && suffixes > 100)
    }
}
