import CEspeakNG
import Foundation
import NIOConcurrencyHelpers

/// Text to speech with eSpeak NG (libespeak-ng), as WAV audio a UI plays: the read-aloud of the kiosk.
///
/// eSpeak NG keeps global state and is not thread-safe, so the process has one synthesizer (`shared`) and every call
/// into the library runs on its one thread (`SpeechThread`), never on a caller's: the agent awaits the audio without
/// holding its actor. Audio is cached by language and text (`SpeechCache`), so a screen heard twice, or a chunk
/// synthesised ahead (`prefetch`), is answered without the library.
///
/// Nothing here logs or keeps a text outside the cache: the texts are the study's and the kiosk's, but a caller's
/// text could be anything, and errors name only the language.
public final class SpeechSynthesizer: Sendable {
    /// The one synthesizer of the process (eSpeak NG's state is global).
    public static let shared = SpeechSynthesizer()

    /// Words per minute: a little slower than eSpeak NG's default 175, for participants who listen rather than read.
    static let wordsPerMinute: Int32 = 160

    private let thread = SpeechThread()
    private let cache: NIOLockedValueBox<SpeechCache>
    /// The sample rate once the library is initialised (0 before), or nil when it could not be.
    private let state = NIOLockedValueBox<LibraryState>(.uninitialised)
    /// The voice eSpeak NG has loaded: changing it reloads the language's dictionary, so it is set only on a change.
    private let loadedVoice = NIOLockedValueBox<String?>(nil)

    private enum LibraryState {
        case uninitialised
        case ready(sampleRate: Int)
        case failed
    }

    private init(cacheBytes: Int = 48 << 20) {
        cache = NIOLockedValueBox(SpeechCache(maximumBytes: cacheBytes))
    }

    /// The audio of `text` spoken by `voice`, from the cache or synthesised on the speech thread.
    ///
    /// - Parameter voice: an eSpeak NG voice name as espeak-ng-data names its voice files (`en-us`, `de`): the
    ///   caller's language knows it (ConsentCore's `KioskLanguagePack.voice`); this module knows no languages.
    ///
    /// - Parameter cache: false for a text that must not outlive its screen (one that names a day in a
    ///   participant's history): it is synthesised, and kept nowhere.
    /// - Throws: `SpeechError.noVoice` when eSpeak NG has no such voice, `.engineFailed` when it cannot start or speak.
    public func speak(_ text: String, voice: String, cache keep: Bool = true) async throws(SpeechError) -> SpokenAudio {
        let key = SpeechCache.Key(voice: voice, text: text)
        if keep, let known = cache.withLockedValue({ $0.audio(for: key) }) { return known }
        let result: Result<SpokenAudio, SpeechError> = await withCheckedContinuation { continuation in
            thread.run(urgent: true) { continuation.resume(returning: self.synthesizeOnThread(key, keep: keep)) }
        }
        return try result.get()
    }

    /// Synthesises `text` ahead of a request (the next chunk of a section being heard), behind every waiting
    /// request; a no-op when it is cached.
    public func prefetch(_ text: String, voice: String) {
        let key = SpeechCache.Key(voice: voice, text: text)
        if cache.withLockedValue({ $0.contains(key) }) { return }
        thread.run(urgent: false) { _ = self.synthesizeOnThread(key, keep: true) }
    }

    /// Whether `text` spoken by `voice` is cached (for tests and the benchmark's floor).
    public func isCached(_ text: String, voice: String) -> Bool {
        cache.withLockedValue { $0.contains(SpeechCache.Key(voice: voice, text: text)) }
    }

    // MARK: On the speech thread only

    private func synthesizeOnThread(_ key: SpeechCache.Key, keep: Bool) -> Result<SpokenAudio, SpeechError> {
        // A prefetch and a request for the same text may both have been queued.
        if keep, let known = cache.withLockedValue({ $0.audio(for: key) }) { return .success(known) }
        guard let (espeak, sampleRate) = initialiseOnThread() else { return .failure(.engineFailed) }
        if loadedVoice.withLockedValue({ $0 }) != key.voice {
            guard key.voice.withCString({ espeak.setVoiceByName($0) }) == EE_OK else {
                loadedVoice.withLockedValue { $0 = nil }
                return .failure(.noVoice(voice: key.voice))
            }
            loadedVoice.withLockedValue { $0 = key.voice }
            _ = espeak.setParameter(espeakRATE, SpeechSynthesizer.wordsPerMinute, 0)
        }
        let sink = SampleSink()
        let unmanaged = Unmanaged.passRetained(sink)
        defer { unmanaged.release() }
        let status = key.text.withCString { text in
            espeak.synth(
                text, strlen(text) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, unmanaged.toOpaque())
        }
        guard status == EE_OK else { return .failure(.engineFailed) }
        let audio = SpokenAudio(samples: sink.samples, sampleRate: sampleRate)
        if keep { cache.withLockedValue { $0.insert(audio, for: key) } }
        return .success(audio)
    }

    /// Opens and starts eSpeak NG once, in synchronous mode (samples through the callback, nothing played): the
    /// library's functions and the sample rate, or nil when the library cannot be opened or started.
    private func initialiseOnThread() -> (cespeakng_functions, Int)? {
        // The library is opened here, on the first synthesis, not at the agent's start (CEspeakNG/shim.h).
        guard let espeak = cespeakng_library()?.pointee else {
            state.withLockedValue { $0 = .failed }
            return nil
        }
        switch state.withLockedValue({ $0 }) {
        case .ready(let rate): return (espeak, rate)
        case .failed: return nil
        case .uninitialised: break
        }
        // espeakINITIALIZE_DONT_EXIT: a missing espeak-ng-data must be an error here, not the agent's exit.
        let rate = espeak.initialize(AUDIO_OUTPUT_SYNCHRONOUS, 200, nil, Int32(espeakINITIALIZE_DONT_EXIT))
        guard rate > 0 else {
            state.withLockedValue { $0 = .failed }
            return nil
        }
        espeak.setSynthCallback { wav, count, events in
            guard let events, let context = events.pointee.user_data else { return 0 }
            let sink = Unmanaged<SampleSink>.fromOpaque(context).takeUnretainedValue()
            if let wav, count > 0 { sink.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count))) }
            return 0
        }
        state.withLockedValue { $0 = .ready(sampleRate: Int(rate)) }
        return (espeak, Int(rate))
    }
}

/// Where the callback puts the samples of one synthesis; only ever touched on the speech thread.
private final class SampleSink {
    var samples: [Int16] = []
}

/// Why there is no audio. Never carries the text.
public enum SpeechError: Error, Sendable, Hashable {
    /// eSpeak NG has no voice of this name (espeak-ng-data lacks it).
    case noVoice(voice: String)
    /// eSpeak NG could not be opened or started (no libespeak-ng.so.1, no espeak-ng-data) or refused to speak.
    case engineFailed
}

/// One synthesis: 16-bit mono PCM, and the WAV file that carries it.
public struct SpokenAudio: Sendable, Hashable {
    public let samples: [Int16]
    public let sampleRate: Int

    public init(samples: [Int16], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    public var durationMilliseconds: Int { sampleRate > 0 ? samples.count * 1000 / sampleRate : 0 }

    /// A RIFF/WAVE file (PCM, 16-bit, mono), which every browser's `<audio>` plays.
    public var wav: [UInt8] {
        let dataBytes = samples.count * 2
        var out: [UInt8] = []
        out.reserveCapacity(44 + dataBytes)
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { out += $0 } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian) { out += $0 } }
        out += Array("RIFF".utf8); u32(36 + dataBytes); out += Array("WAVE".utf8)
        out += Array("fmt ".utf8); u32(16); u16(1); u16(1); u32(sampleRate); u32(sampleRate * 2); u16(2); u16(16)
        out += Array("data".utf8); u32(dataBytes)
        #if _endian(little)
        // The samples' memory is already the file's little-endian layout: one copy, not one append per sample.
        samples.withUnsafeBytes { out += $0 }
        #else
        for sample in samples { withUnsafeBytes(of: sample.littleEndian) { out += $0 } }
        #endif
        return out
    }
}
