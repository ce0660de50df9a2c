/// A text cut into the pieces it is synthesised and sent in: whole sentences up to `maximumCharacters` each (a
/// longer sentence at its commas, then at spaces). The first piece of a long section is then ready in the time of
/// one or two sentences, not of the whole section, and no reply carries more than about 15 seconds of audio
/// (a WAV of about 700 KB at eSpeak NG's 22,050 Hz).
public enum SpeechChunks {
    public static let defaultMaximumCharacters = 220

    public static func split(_ text: String, maximumCharacters: Int = defaultMaximumCharacters) -> [String] {
        var chunks: [String] = []
        var current = ""
        func flush() {
            let trimmed = current.trimmingSpaces
            if !trimmed.isEmpty { chunks.append(trimmed) }
            current = ""
        }
        for sentence in pieces(of: text, maximum: maximumCharacters) {
            if !current.isEmpty, current.count + 1 + sentence.count > maximumCharacters { flush() }
            current += current.isEmpty ? sentence : " " + sentence
        }
        flush()
        return chunks
    }

    /// The sentences of `text`, each at most `maximum` characters (cut at a comma or semicolon, else at a space).
    static func pieces(of text: String, maximum: Int) -> [String] {
        var sentences: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if ".!?;:\n".contains(character) {
                sentences.append(current)
                current = ""
            }
        }
        sentences.append(current)
        return sentences.map(\.trimmingSpaces).filter { !$0.isEmpty }.flatMap { cut($0, maximum: maximum) }
    }

    private static func cut(_ sentence: String, maximum: Int) -> [String] {
        guard sentence.count > maximum else { return [sentence] }
        var parts: [String] = []
        var rest = Substring(sentence)
        while rest.count > maximum {
            let window = rest.prefix(maximum)
            let cutAt = window.lastIndex(where: { $0 == "," }) ?? window.lastIndex(where: { $0 == " " })
            let end = cutAt.map { rest.index(after: $0) } ?? window.endIndex
            parts.append(String(rest[..<end]).trimmingSpaces)
            rest = rest[end...]
        }
        parts.append(String(rest).trimmingSpaces)
        return parts.filter { !$0.isEmpty }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
