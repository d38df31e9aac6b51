import Foundation
import PostboxTesting
import TelegramClient
import TelegramCore
import TestVectors
import Testing

/// Phone book files for `tg contacts import`: vCard 3.0 and 4.0 (folded lines, escapes, `N` before `FN`, `tel:` URIs,
/// several numbers a card) and CSV (quoted fields, `first_name`/`last_name`), and each kind of bad file refused with
/// the line that is wrong.
@Suite struct ContactFileTests {
    @Test func vCardThreeAndFour() throws {
        let text = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            N:Liddell;Alice;;;\r
            FN:Alice Liddell\r
            TEL;TYPE=CELL:+1 (555) 010-0001\r
            item1.TEL;TYPE=HOME:+1 555 010 0002\r
            END:VCARD\r
            BEGIN:VCARD
            VERSION:4.0
            FN:Bob van
              der Berg
            TEL;VALUE=uri;TYPE="voice,cell":tel:+31-20-555-0003
            EMAIL:bob@example.org
            END:VCARD
            begin:vcard
            fn:Semi\\; Colon
            tel:5550004
            end:vcard
            BEGIN:VCARD
            FN:No Number
            END:VCARD
            """
        let contacts = try ContactFile.vCard(text)
        #expect(
            contacts == [
                PhoneContact(phone: "+1 (555) 010-0001", firstName: "Alice", lastName: "Liddell"),
                PhoneContact(phone: "+1 555 010 0002", firstName: "Alice", lastName: "Liddell"),
                PhoneContact(phone: "+31-20-555-0003", firstName: "Bob", lastName: "van der Berg"),
                PhoneContact(phone: "5550004", firstName: "Semi;", lastName: "Colon"),
            ])
    }

    @Test func csvWithQuotesAndSplitNames() throws {
        let text = """
            \u{FEFF}Name,Phone,Note
            "Liddell, Alice",+1 555 010 0001,"says ""hi""\"
            Bob Berg,5550002,

            Carol,"+44 20 7946 0003","two
            lines"
            """
        #expect(
            try ContactFile.csv(text) == [
                PhoneContact(phone: "+1 555 010 0001", firstName: "Liddell,", lastName: "Alice"),
                PhoneContact(phone: "5550002", firstName: "Bob", lastName: "Berg"),
                PhoneContact(phone: "+44 20 7946 0003", firstName: "Carol", lastName: ""),
            ])
        #expect(
            try ContactFile.csv("first_name,last_name,phone\nAnn,Lee,5550009")
                == [PhoneContact(phone: "5550009", firstName: "Ann", lastName: "Lee")])
    }

    @Test func badFilesNameTheLine() throws {
        func refusal(_ body: () throws -> [PhoneContact]) -> String {
            do {
                _ = try body()
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        #expect(
            refusal { try ContactFile.vCard("BEGIN:VCARD\nFN:A\nTEL:5550001\n", name: "x.vcf") }.contains("x.vcf:1"))
        #expect(refusal { try ContactFile.vCard("FN:A\n", name: "x.vcf") }.contains("outside BEGIN:VCARD"))
        #expect(
            refusal { try ContactFile.vCard("BEGIN:VCARD\nFN:A\nTEL:call me\nEND:VCARD", name: "x.vcf") }
                .contains("x.vcf:3: 'call me' is not a phone number"))
        #expect(refusal { try ContactFile.vCard("hello\n", name: "x.vcf") }.contains("not a vCard line"))
        #expect(
            try ContactFile.vCard("\u{FEFF}BEGIN:VCARD\nFN:Bom\nTEL:5550001\nEND:VCARD")
                == [PhoneContact(phone: "5550001", firstName: "Bom")], "a byte order mark is not a line")
        #expect(refusal { try ContactFile.csv("name,number\nA,1", name: "x.csv") }.contains("no 'phone' column"))
        #expect(
            refusal { try ContactFile.csv("name,phone\nA,5550001,extra", name: "x.csv") }.contains("x.csv:2: 3 fields"))
        #expect(refusal { try ContactFile.csv("name,phone\n\"A,5550001", name: "x.csv") }.contains("not closed"))
        #expect(refusal { try ContactFile.csv("name,phone\nA,12", name: "x.csv") }.contains("x.csv:2"))

        let directory = TemporaryDirectory(prefix: "contact-files")
        defer { directory.remove() }
        let text = directory.path + "/book.txt"
        try Data("name,phone\nA,5550001\n".utf8).write(to: URL(fileURLWithPath: text))
        #expect(refusal { try ContactFile.read(text) }.contains("not a .vcf or .csv"))
        #expect(refusal { try ContactFile.read(directory.path + "/missing.csv") }.contains("cannot be read"))
        let empty = directory.path + "/empty.vcf"
        try Data("BEGIN:VCARD\nFN:Nobody\nEND:VCARD\n".utf8).write(to: URL(fileURLWithPath: empty))
        #expect(refusal { try ContactFile.read(empty) }.contains("no contacts with a phone number"))
        let latin1 = directory.path + "/latin1.csv"
        try Data([0x6E, 0x61, 0x6D, 0x65, 0x2C, 0x70, 0x68, 0x6F, 0x6E, 0x65, 0x0A, 0xE9, 0x2C, 0x31]).write(
            to: URL(fileURLWithPath: latin1))
        #expect(refusal { try ContactFile.read(latin1) }.contains("not UTF-8"))
    }
}
