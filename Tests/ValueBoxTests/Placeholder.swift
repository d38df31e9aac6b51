@testable import ValueBox
