"""Writes entities-corpus.jsonl, the inputs the text-entity tests give both TDLib and TextFormat: hand-written hard
cases, then seeded random mixes of fragments (mentions, hashtags, cashtags, commands, URLs with odd TLDs and
punycode, e-mails, card numbers, emoji with skin tones and ZWJ sequences, flags, CJK, Vietnamese with combining
marks, Arabic and Hebrew) joined by spaces, punctuation and line breaks. Deterministic: re-running gives the same
file.

Usage: make_corpus.py [--count N] [--seed S] > entities-corpus.jsonl
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=520)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    lines = list(HAND)
    for _ in range(args.count):
        parts = []
        for _ in range(rng.randint(1, 7)):
            parts.append(rng.choice(FRAGMENTS))
            parts.append(rng.choice(SEPARATORS))
        lines.append("".join(parts))
    for line in lines:
        print(json.dumps(line, ensure_ascii=False))


if __name__ == "__main__":
    main()
