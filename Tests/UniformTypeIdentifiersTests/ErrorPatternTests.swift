import SystemPackage
import Testing
import UniformTypeIdentifiers

/// A domain declared here, as a client or a new module would: one line per kind.
private enum ParcelErrorDomain: ErrorDomain {}
private typealias ParcelError = LocatedError<ParcelErrorDomain>

extension ErrorKind where Domain == ParcelErrorDomain {
    fileprivate static let tooHeavy = Self("too-heavy") { "weighs \($0.detail ?? "?"), over the limit" }
    fileprivate static let lost = Self("lost") { "lost in transit (\($0.systemMessage))" }
}

@Suite("Errors: one generic type, kinds that carry their messages")
struct ErrorPatternTests {
    @Test func aKindDeclaredInOneLineDescribesItsReason() {
        let error = ParcelError(path: "box/1", reason: .init(.tooHeavy, detail: "31 kg"))
        #expect(error.description == "box/1: weighs 31 kg, over the limit")
        #expect(error.message == "weighs 31 kg, over the limit")
        #expect(error.kind == .tooHeavy)
        #expect(error.kind != .lost)
        let lost = ParcelError(path: "box/2", reason: .init(.lost, errno: .noSuchFileOrDirectory, detail: "sorting"))
        #expect(lost.description == "box/2: lost in transit (sorting: \(Errno.noSuchFileOrDirectory))")
        #expect(lost.reason.errno == .noSuchFileOrDirectory)
    }

    @Test func kindsAreEqualByTheirCodeAlone() {
        // A kind read back from its code (JSON, a problem report) is the declared one.
        #expect(ErrorKind<ParcelErrorDomain>(rawValue: "too-heavy") == .tooHeavy)
        #expect(Set([ErrorKind<ParcelErrorDomain>.tooHeavy, "too-heavy", .lost]).count == 2)
        // A kind known only by its code is described by it.
        let unknown = ParcelError(path: "box/3", reason: .init("returned"))
        #expect(unknown.description == "box/3: returned")
        // Reasons compare by everything they carry.
        #expect(ParcelError.Reason(.tooHeavy, detail: "31 kg") == .init(.tooHeavy, detail: "31 kg"))
        #expect(ParcelError.Reason(.tooHeavy, detail: "31 kg") != .init(.tooHeavy, detail: "32 kg"))
    }
}
