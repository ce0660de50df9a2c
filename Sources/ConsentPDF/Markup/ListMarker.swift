/// The numbering of ordered lists: `type="1"` (default), `a`, `A`, `i`, `I`.
enum ListMarker {
    static func ordered(_ number: Int, style: String) -> String {
        switch style {
        case "a": letters(number).lowercased()
        case "A": letters(number)
        case "i": roman(number).lowercased()
        case "I": roman(number)
        default: String(number)
        }
    }

    /// 1 → A, 26 → Z, 27 → AA.
    static func letters(_ number: Int) -> String {
        guard number > 0 else { return String(number) }
        var n = number
        var result = ""
        while n > 0 {
            n -= 1
            result = String(UnicodeScalar(UInt8(65 + n % 26))) + result
            n /= 26
        }
        return result
    }

    static func roman(_ number: Int) -> String {
        guard number > 0, number < 4000 else { return String(number) }
        let table: [(Int, String)] = [
            (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
            (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
        ]
        var n = number
        var result = ""
        for (value, symbol) in table {
            while n >= value {
                result += symbol
                n -= value
            }
        }
        return result
    }
}
