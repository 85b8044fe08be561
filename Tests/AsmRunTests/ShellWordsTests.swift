import Testing

@testable import Support

@Suite struct ShellWordsTests {
    @Test func splitsQuotedWords() throws {
        #expect(try ShellWords.split(#"a "b c" 'd e' f\ g"#) == ["a", "b c", "d e", "f g"])
        #expect(try ShellWords.split("  ") == [])
        #expect(try ShellWords.split(#""""#) == [""])
    }

    @Test func rejectsUnterminatedQuote() {
        #expect(throws: ShellWords.UnterminatedQuote.self) { try ShellWords.split(#"a "b"#) }
    }

    @Test func quotesOnlyWhenNeeded() throws {
        #expect(ShellWords.quote("plain-word") == "plain-word")
        #expect(ShellWords.quote("two words") == "'two words'")
        #expect(ShellWords.quote("it's") == #"'it'\''s'"#)
        for word in ["", "a b", "it's", "$HOME", "x\"y"] {
            #expect(try ShellWords.split(ShellWords.quote(word)) == [word])
        }
    }
}
