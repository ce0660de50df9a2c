import ConsentCore
import Foundation

/// A study as a fuzz harness keeps it for the whole run: loaded inside `FuzzEntry.harness`, with every
/// byte it holds allocated on the thread that paused LeakSanitizer there.
///
/// Why the copy: `Study.load` reads the translations on Dispatch's worker threads (`SideBySide`), and LeakSanitizer's
/// pause (`__lsan_disable`) covers only the thread that calls it. LeakSanitizer cannot follow a reference Swift keeps
/// in an enum's spare bits, as `Data` keeps its storage (`FuzzEntry.harness` says more), so the image a translation
/// holds, read on a worker thread, was reported at exit as leaked (65 + 1,472 bytes: `Study.load` →
/// `SideBySide.results` → `StudyFileReader.data`) by every target that keeps the study. The harness's one-time
/// state was all that was "leaked"; a copy made on the calling thread, under the pause, takes the original's place,
/// and the worker thread's allocation is freed when its last reference goes.
public enum FuzzStudy {
    /// `study` with the bytes of every asset, in every language, copied on the calling thread.
    public static func ownedByThisThread(_ study: Study) -> Study {
        var study = study
        study.assets = study.assets.mapValues { asset in
            var asset = asset
            asset.bytes = Data([UInt8](asset.bytes))
            return asset
        }
        study.translations = study.translations.map(ownedByThisThread)
        return study
    }
}
