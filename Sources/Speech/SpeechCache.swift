/// Synthesised audio by voice and text, bounded in bytes: the oldest entries go first once it is full. The texts
/// are a study's and the kiosk's (a fixed, finite set per study); the bound only guards against a bug feeding it
/// generated text.
struct SpeechCache: Sendable {
    struct Key: Hashable, Sendable {
        var voice: String
        var text: String
    }

    let maximumBytes: Int
    private var entries: [Key: SpokenAudio] = [:]
    private var order: [Key] = []
    private var bytes = 0

    init(maximumBytes: Int) { self.maximumBytes = maximumBytes }

    func audio(for key: Key) -> SpokenAudio? { entries[key] }
    func contains(_ key: Key) -> Bool { entries[key] != nil }

    mutating func insert(_ audio: SpokenAudio, for key: Key) {
        guard entries[key] == nil else { return }
        let size = audio.samples.count * 2 + key.text.utf8.count
        guard size <= maximumBytes else { return }
        while bytes + size > maximumBytes, !order.isEmpty {
            let oldest = order.removeFirst()
            if let gone = entries.removeValue(forKey: oldest) { bytes -= gone.samples.count * 2 + oldest.text.utf8.count }
        }
        entries[key] = audio
        order.append(key)
        bytes += size
    }
}
