import BoundaryCheck
import Testing

@Suite struct PathDependentCodeTests {
    @Test func findsWhatMakesABuildDependOnItsFolderInSwiftCode() {
        let source = """
            func write<T>(_ body: () -> T) -> T {
                withoutActuallyEscaping(body) { $0() }
            }
            let here = #filePath
            // withoutActuallyEscaping in a comment is an explanation, not code
            /* #filePath
               withoutActuallyEscaping */
            let text = "withoutActuallyEscaping and #filePath in a string"
            let other = myWithoutActuallyEscapingHelper
            let file = #fileID
            """
        #expect(PathDependentCode.findings(in: source, swift: true) == [
            .init(construct: "withoutActuallyEscaping", line: 2), .init(construct: "#filePath", line: 4),
        ])
    }

    @Test func findsTheBuildTimeAndPathMacrosInC() {
        let source = """
            static const char *built = __DATE__ " " __TIME__;
            // __FILE__ in a comment
            const char *where = __FILE__;
            const char *stamp = __TIMESTAMP__;
            const char *text = "__DATE__";
            int MY__DATE__X = 1;
            """
        #expect(PathDependentCode.findings(in: source, swift: false) == [
            .init(construct: "__DATE__", line: 1), .init(construct: "__TIME__", line: 1), .init(construct: "__FILE__", line: 3),
            .init(construct: "__TIMESTAMP__", line: 4),
        ])
    }
}
