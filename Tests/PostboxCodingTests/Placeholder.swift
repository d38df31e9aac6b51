@testable import PostboxCoding
