@testable import Postbox
