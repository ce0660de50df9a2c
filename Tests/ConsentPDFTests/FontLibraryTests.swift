import ConsentCore
import Foundation
import Testing

@testable import ConsentPDF

/// The one font map every PDF is laid out with (`FontLibrary`): renders on several threads at once share it behind
/// its lock, and releasing it (what the exit handler does, so LeakSanitizer finds no fontconfig memory at exit)
/// neither aborts in fontconfig's `FcFini` nor changes the next PDF.
@Suite(.serialized) struct FontLibraryTests {
    static func render(_ study: Study) throws -> RenderedPDF {
        try ConsentPDFRenderer(options: Fixtures.options).render(
            study: study, signers: [.participant(printedName: "Zoë Müller-Østergaard", strokes: Fixtures.strokes())],
            signedAt: Fixtures.signedAt)
    }

    @Test func rendersOnSeveralThreadsAtOnceAreTheSameAsOne() async throws {
        let study = try Fixtures.sampleStudy()
        let first = try Self.render(study)
        let others = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<6 { group.addTask { try Self.render(study).data } }
            return try await group.reduce(into: [Data]()) { $0.append($1) }
        }
        #expect(others.count == 6)
        #expect(others.allSatisfy { $0 == first.data })
    }

    @Test func releaseFreesFontconfigAndTheNextPDFIsUnchanged() throws {
        let study = try Fixtures.sampleStudy()
        let before = try Self.render(study)
        // Debian's fontconfig keeps its asserts: FcFini aborts the process if any font map still held its caches.
        FontLibrary.release()
        FontLibrary.release()
        let after = try Self.render(study)
        #expect(after.data == before.data)
        #expect(try Poppler.text(after.data).normalizedPDFText == Poppler.text(before.data).normalizedPDFText)
    }
}
