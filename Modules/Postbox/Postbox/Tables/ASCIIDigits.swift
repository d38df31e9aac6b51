/// Builds the text index's short ASCII ids (the collection id `p<peer>`) in one pass over a stack buffer: they are
/// made for every message written, and string interpolation cost more than a tenth of a bulk insert's own work.
enum ASCIIDigits {
    /// An ASCII writer over a fixed buffer.
    struct Writer {
        fileprivate var buffer: UnsafeMutableBufferPointer<UInt8>
        fileprivate var count = 0

        /// Appends one ASCII byte.
        mutating func append(_ byte: UInt8) {
            buffer[count] = byte
            count += 1
        }

        /// Appends `value` in decimal, with a leading "-" when negative.
        mutating func appendDecimal<T: BinaryInteger>(_ value: T) {
            if value < 0 { append(UInt8(ascii: "-")) }
            appendDecimal(UInt64(value.magnitude))
        }

        /// Appends `value` in decimal.
        mutating func appendDecimal(_ value: UInt64) {
            var digits: (UInt64, Int) = (value, 0)
            repeat {
                digits.1 += 1
                digits.0 /= 10
            } while digits.0 != 0
            var rest = value
            var position = count + digits.1
            count = position
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest != 0
        }
    }

    /// The string `body` writes (at most `capacity` bytes, all ASCII).
    static func string(capacity: Int, _ body: (inout Writer) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { buffer in
            var writer = Writer(buffer: buffer)
            body(&writer)
            return writer.count
        }
    }
}
