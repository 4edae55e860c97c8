// A stand-in for swift-collections' HeapModule, for Scripts/typecheck-ios.sh: the part of
// `Heap` calldir's loader uses, with swift-collections 1.6.0's signatures. Its sources need
// that package's own build settings (a package name, experimental features) to compile; as a
// package it is available from iOS 8, so nothing here carries an @available. Nothing runs.

public struct Heap<Element: Comparable> {
  public init() {}
  public init<S: Sequence>(_ elements: S) where S.Element == Element {}
  public init(minimumCapacity: Int) {}
  public mutating func reserveCapacity(_ minimumCapacity: Int) {}
  public var count: Int { 0 }
  public var isEmpty: Bool { true }
  public var min: Element? { nil }
  public var max: Element? { nil }
  public var unordered: [Element] { [] }
  public mutating func insert(_ element: Element) {}
  public mutating func removeMin() -> Element { fatalError() }
  public mutating func popMin() -> Element? { nil }
  public mutating func replaceMin(with replacement: Element) -> Element { fatalError() }
}
