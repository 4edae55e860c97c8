import BenchMeasuring

/// Labels every chart writes the same way.
public enum ChartLabels {
  /// About how wide `text` is drawn at `size` px in the charts' sans-serif fonts: 0.57 em a
  /// character (digits and lower case are 0.5–0.6 em), erring wide.
  static func estimatedWidth(_ text: String, size: Double) -> Double {
    Double(text.count) * size * 0.57
  }

  /// Where a label `width` px wide that would start at `x` starts so that no vertical line in
  /// `lines` runs through it: past the last line it would cross, 6 px clear.
  static func clear(of lines: [Double], startingAt x: Double, width: Double) -> Double {
    var start = x
    for line in lines.sorted() where line >= start - 3 && line <= start + width + 3 {
      start = line + 6
    }
    return start
  }
}
