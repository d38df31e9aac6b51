"""Writes entities-corpus.jsonl (--kind entities) or markdown-corpus.jsonl (--kind markdown), the inputs the text-entity tests give both TDLib and TextFormat: hand-written hard
cases, then seeded random mixes of fragments (mentions, hashtags, cashtags, commands, URLs with odd TLDs and
punycode, e-mails, card numbers, emoji with skin tones and ZWJ sequences, flags, CJK, Vietnamese with combining
marks, Arabic and Hebrew) joined by spaces, punctuation and line breaks. Deterministic: re-running gives the same
file.

Usage: make_corpus.py [--kind entities|markdown] [--count N] [--seed S] > <kind>-corpus.jsonl
"""
import argparse
import json
import random

HAND = [
    "", " ", "@", "#", "$", "/", ".", "..", "a.b", "@ab", "@abc", "@abcd", "@gif", "@GIF", "@nft hello", "@vid.", "x@user",
    "@user_name_with_32_characters_xx", "@user_name_with_33_characters_xxx", "@under_", "(@inparens)", "@a@b",
    "#", "#1", "#a1", "#tag#tag", "#tag@bot", "#tag@bo", "# space", "##double", "#тег", "#標籤", "#thẻ_việt",
    "#" + "a" * 256, "#" + "a" * 257, "a#b", "#ok,#ok2", "#\u200cx", "#·dot",
    "$", "$A", "$USD", "$usd", "$ABCDEFGH", "$ABCDEFGHI", "$1INCH", "$USD@bot", "$USD$", "a$USD", "$$USD", "$US1",
    "/start", "/start@bot", "/start@bo", "a/start", "/start/now", "</start>", "/" + "c" * 64, "/" + "c" * 65,
    "/start_1 /help", "//start",
    "4111111111111111", "4111 1111 1111 1111", "4111-1111-1111-1111", "5500 0000 0000 0004", "378282246310005",
    "6200000000000005", "2200000000000004", "1234567812345678", "4111111111111111x", "+4111111111111111",
    "4111 1111 1111 1111 1", "card:4111111111111111.", "40128888888881881", "4222222222222",
    "t.me", "t.me/", "t.me/telegram", "https://t.me/telegram", "http://example.com", "HTTP://EXAMPLE.COM",
    "example.com", "Example.Com", "EXAMPLE.COM", "example.Com", "example.cOM", "example.unknowntld", "http://example.unknowntld",
    "ftp://files.example.org/a.txt", "sftp://example.com", "tftp://example.com", "shttp://example.com", "xhttp://example.com",
    "tonsite://site.ton", "tg://resolve?domain=telegram", "ton://wallet", "tg://", "TG://Resolve",
    "www.example.com", "sub.sub.example.co.uk", "example.com:8080/path", "example.com:99999", "example.com:080",
    "example.com/path?q=1#frag", "example.com/path.", "example.com/path...", "example.com/(a)", "example.com/a)",
    "example.com/[a]", "(example.com)", "\"example.com\"", "«example.com»", "example.com/«x»", "example.com\\x",
    "user:pass@example.com", "a@example.com", "a.b+c@example.co.uk", "first.last@sub.example.museum",
    "mailto:a@example.com", "a@b", "a@b.c", "a@localhost", "@example.com", "a@@example.com", "a@example.com.",
    "1.2.3.4", "192.168.0.1", "256.1.1.1", "01.2.3.4", "1.2.3", "1.2.3.4.5", "999.999.999.999",
    "xn--80ak6aa92e.com", "xn--e1afmkfd.xn--p1ai", "пример.рф", "пример.испытание", "例子.中国", "münchen.de",
    "teiegram.org", "Teiegram.org", "telegram.org", "example_.com", "ex_ample.com", "a_b.c_d.com", "example-.com",
    "-example.com", "exa--mple.com", "a.co", "a.c", "e.g.", "i.e. this", "end.", "file.txt", "v1.2.3",
    "Hello, world!", "Tối nay ăn phở bò nhé?", "Tiếng Việt có dấu: ắ ằ ẳ ẵ ặ", "Tie\u0302\u0301ng Vie\u0323\u0302t",
    "مرحبا @user كيف حالك؟ example.com", "שלום #תג עולם", "mixed عربي and English t.me/x",
    "👍🏽 @user", "👨‍👩‍👧‍👦 #family", "🇻🇳 🇺🇦 flags example.com", "😀😀😀 $USD", "🏳️‍🌈 /cmd",
    "日本語のテキスト #日本 example.jp", "中文 @user_cn 例子.中国", "한국어 #태그",
    "line1\nline2 @user\n#tag", "tab\t@user\texample.com", "\u00a0@user\u00a0", "\u2009example.com\u2009",
    "a\u200bexample.com", "zero\u200dwidth.com", "dash\u2013example.com", "example.com\u2026",
    "@user.example.com", "#tag.example.com", "$USD.com", "/cmd.com", "a.b.c.d.e.f.g.h.com",
    "http://" + "a" * 63 + ".com", "http://" + "a" * 64 + ".com", "https://example.com/" + "p" * 200,
    "see https://core.telegram.org/api/entities, then t.me/telegram.", "(https://example.com/a_(b))",
    "https://example.com/?q=a&b=c#x", "https://user@example.com", "https://@example.com", "https://ex ample.com",
    "http://1.2.3.4:80/x", "http://[::1]/", "javascript:alert(1)", "file:///etc/passwd", "HTTPS://T.ME/X",
    "example.com?", "example.com!", "example.com:", "example.com;", "example.com'", "example.com`",
]

FRAGMENTS = [
    "@user", "@ab", "@gif", "@some_long_username_12", "#tag", "#теги", "#1a", "#tag@bot", "$USD", "$BTC@bot", "$TOOLONGXX",
    "/start", "/help@some_bot", "t.me/x", "https://t.me/telegram", "example.com", "Example.COM", "a@b.co",
    "first.last+tag@example.org", "mailto:x@y.io", "4111 1111 1111 1111", "5500-0000-0000-0004", "378282246310005",
    "1234567890123", "1:30", "12:34:56", "tg://resolve?domain=x", "ftp://f.example.net/x", "http://1.2.3.4/",
    "xn--p1ai.xn--p1ai", "пример.рф", "phở", "Nguyễn", "ắ", "e\u0301", "مرحبا", "שלום", "日本", "한국", "👍🏽", "👨‍👩‍👧",
    "🇻🇳", "😀", "(", ")", "[", "]", "\"", "'", "«", "»", "...", ",", ";", ":", "!", "?", "-", "_", "*", "~", "|", "`",
]

SEPARATORS = [" ", " ", " ", "", "\n", ", ", ".", "/", "@", "#", "\u00a0", "\t", "-", "_"]


MARKDOWN_HAND = [
    "**bold**", "__italic__", "~~strike~~", "||spoiler||", "`code`", "```pre```", "```swift\nlet x = 1\n```",
    "```\nno language\n```", "```swift let x```", "```a b\nc```", "``two``", "````four````", "`unclosed", "```unclosed",
    "**unclosed", "__", "****", "** **", "**a**b**c**", "***bold?***", "**__bold italic__**", "__**italic bold**__",
    "**bold __both** italic__", "||**spoiler bold**||", "~~**x**~~", "**a** **b**", "**multi\nline**",
    "[link](https://telegram.org)", "[link](telegram.org)", "[link](t.me/x)", "[link](tg://resolve?domain=x)",
    "[link](ton://x)", "[link](tonsite://a.ton)", "[link](javascript:alert(1))", "[link](notalink)", "[link]()", "[](https://t.me)",
    "[a](https://t.me/a) [b](https://t.me/b)", "[**bold link**](https://t.me)", "**[link](https://t.me) in bold**",
    "[link](https://example.com/a b)", "[link](HTTPS://EXAMPLE.COM)", "[link](https://user:pw@example.com:8080/p?q#f)",
    "[link](https://[::1]/)", "[link](https://example.com:0)", "[link](https://example.com:99999)", "[nested [x]](https://t.me)",
    "[x](https://t.me/(a))", "[x](https://t.me)(y)", "text [ not a link ] (x)", "`[not](a link)`", "**`code in bold`**",
    "`**not bold**`", "```**not bold**```", "__@mention__", "**#hashtag**", "@user**name**", "a__b__c", "snake_case_name",
    "__init__", "2**10**3", "**$USD**", "/cmd**x**", "**4111 1111 1111 1111**", "**https://example.com**",
    "~~~tilde~~~", "|||pipes|||", "\\*\\*escaped\\*\\*", "Tối **nay** __ăn__ phở", "**Nguyễn** ~~Văn~~", "مرحبا **عالم**",
    "**שלום** עולם", "**日本語** __中文__", "**👍🏽** ||😀||", "**👨‍👩‍👧‍👦 family**", "🇻🇳 **flag**", "`👍` ```😀```",
    "line\r\nbreak **bold**", "tab\there **x**", "\u2028sep **x**", "zero\u200bwidth**bold**", "   ", "\n\n", " **x** ",
    "**x**\n", "\u200e\u200f\u200e mark", "a\u0333b", "**", "*single*", "_single_", "~single~", "|single|",
]

MARKDOWN_FRAGMENTS = [
    "**", "__", "~~", "||", "`", "```", "```swift\n", "[", "]", "(", ")", "[link](https://t.me)", "[x](t.me/y)", "bold",
    "italic", "phở", "Nguyễn", "مرحبا", "日本", "👍🏽", "👨‍👩‍👧", "@user", "#tag", "$USD", "/start", "example.com", "a@b.co",
    "4111 1111 1111 1111", "snake_case", "2*3", "\n", " ", " ", "-", ".", "*", "_", "~", "|",
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kind", choices=["entities", "markdown"], default="entities")
    parser.add_argument("--count", type=int, default=520)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    hand, fragments = (HAND, FRAGMENTS) if args.kind == "entities" else (MARKDOWN_HAND, MARKDOWN_FRAGMENTS)
    lines = list(hand)
    words = ["bold", "phở", "Nguyễn", "مرحبا", "日本", "👍🏽", "👨‍👩‍👧", "@user", "#tag", "$USD", "/start", "example.com",
             "a@b.co", "4111 1111 1111 1111", "snake_case", "x y", "line\nbreak", "🇻🇳"]
    wrappers = [("**", "**"), ("__", "__"), ("~~", "~~"), ("||", "||"), ("`", "`"), ("```", "```"), ("```swift\n", "```"),
                ("[", "](https://t.me/x)"), ("[", "](example.com)"), ("[", "](bad link)")]
    for index in range(args.count):
        if args.kind == "markdown" and index % 2 == 0:
            # Styled runs, nested now and then and sometimes left open, so most inputs carry entities.
            parts = []
            for _ in range(rng.randint(1, 5)):
                text = rng.choice(words)
                for _ in range(rng.randint(1, 2)):
                    opening, closing = rng.choice(wrappers)
                    text = opening + text + (closing if rng.random() < 0.9 else "")
                parts.append(text)
            lines.append(rng.choice([" ", "", "\n", ", "]).join(parts))
            continue
        parts = []
        for _ in range(rng.randint(1, 7 if args.kind == "entities" else 9)):
            parts.append(rng.choice(fragments))
            if args.kind == "entities":
                parts.append(rng.choice(SEPARATORS))
        lines.append("".join(parts))
    for line in lines:
        print(json.dumps(line, ensure_ascii=False))


if __name__ == "__main__":
    main()
