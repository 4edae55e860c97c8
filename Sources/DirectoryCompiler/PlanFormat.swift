import Foundation

/// The published formats ``NumberingPlan`` reads, each as its publisher ships it.
public enum PlanFormat: String, Sendable, CaseIterable {
  /// ARCEP's `MAJNUM.csv` (France and its overseas departments): ISO-8859-1, `;`-separated,
  /// fields quoted where they hold a comma, header
  /// `EZABPQM;Tranche_Debut;Tranche_Fin;Mnémo;Territoire;Date_Attribution`, ranges in national
  /// form (`0162000000;0162009999`), dates `DD/MM/YYYY`. Published at data.gouv.fr ("Ressources
  /// en numérotation téléphonique"), under the Licence Ouverte; about 19,100 lines.
  case arcep
  /// Russia's register of numbering capacity (Минцифры, opendata.digital.gov.ru: `ABC-3xx.csv`,
  /// `ABC-4xx.csv`, `ABC-8xx.csv`, `DEF-9xx.csv`): UTF-8 with a BOM, `;`-separated, no quoting
  /// (company names hold bare quotes), header `АВС/ DEF;От;До;Емкость;Оператор;Регион;Территория
  /// ГАР;ИНН`: a 3-digit code and a from–to range of the 7-digit subscriber part.
  case russia
  /// NANPA's central office codes in use (`allutlzd.txt`, unzipped from
  /// nationalnanpa.com/nanp1/allutlzd.zip; updated weekly): the United States and its
  /// territories, ASCII, tab-separated with fields padded by spaces, a header naming its
  /// columns (`State`, `NPA-NXX`, `OCN`, `Company`, `RateCenter`, `EffectiveDate`, `Use`: the
  /// columns of NANPA's "utilized" code files as areacode-info.com lists them; later files add
  /// `AssignDate` and others, read by name, so their order does not matter). Each row is an
  /// NPA-NXX (`201-200`): ten thousand numbers, `+1 201 200 0000` to `+1 201 200 9999`;
  /// `Use` `AS` is assigned, anything else is left out. Dates are `MM/DD/YYYY`.
  case nanpa

  /// Who publishes it, for errors.
  var publisher: String {
    switch self {
    case .arcep: "ARCEP"
    case .russia: "Russia's Ministry of Digital Development"
    case .nanpa: "NANPA"
    }
  }

  /// The file's published name.
  var fileName: String {
    switch self {
    case .arcep: "MAJNUM.csv"
    case .russia: "register of numbering capacity (DEF-9xx.csv, ABC-3xx.csv…)"
    case .nanpa: "allutlzd.txt (the codes in use, unzipped from allutlzd.zip)"
    }
  }

  /// The header line as published.
  var header: String {
    switch self {
    case .arcep: "EZABPQM;Tranche_Debut;Tranche_Fin;Mnémo;Territoire;Date_Attribution"
    case .russia: "АВС/ DEF;От;До;Емкость;Оператор;Регион;Территория ГАР;ИНН"
    case .nanpa: Self.nanpaColumns.joined(separator: "\t")
    }
  }

  var encodingName: String {
    switch self {
    case .arcep: "ISO-8859-1"
    case .russia: "UTF-8"
    case .nanpa: "ASCII"
    }
  }

  /// What the plan's file is called inside an archive.
  var fileExtensions: [String] {
    switch self {
    case .arcep, .russia: [".csv"]
    case .nanpa: [".txt"]
    }
  }

  /// The byte between fields.
  var delimiter: UInt8 {
    switch self {
    case .arcep, .russia: UInt8(ascii: ";")
    case .nanpa: UInt8(ascii: "\t")
    }
  }

  /// NANPA's columns read, by the names its header gives them, in the order ``range`` takes.
  static let nanpaColumns = [
    "State", "NPA-NXX", "OCN", "Company", "RateCenter", "EffectiveDate", "Use",
  ]

  /// Where each of the columns ``range`` reads stands in a file with `header`: nil for the
  /// formats whose columns are fixed, an index (or nil: absent) per column for NANPA's.
  func columnOrder(header: String) -> [Int?]? {
    guard self == .nanpa else { return nil }
    let names = header.split(separator: "\t", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: " ", with: "")
    }
    return Self.nanpaColumns.map { names.firstIndex(of: $0.lowercased()) }
  }

  var quoting: Quoting {
    switch self {
    case .arcep: .rfc4180
    case .russia, .nanpa: .none
    }
  }

  /// How a file's lines are decoded, as its header shows.
  enum LineEncoding { case utf8, latin1 }

  /// The encoding the header line shows: ARCEP's ISO-8859-1, unless the header is UTF-8 with
  /// its `Mnémo` (a copy re-saved by an editor); Russia's UTF-8, which must be valid; NANPA's
  /// ASCII, read as UTF-8. Nil when the header cannot be the format's encoding.
  func encoding(ofHeader bytes: ArraySlice<UInt8>) -> LineEncoding? {
    let text = String(validating: bytes, as: UTF8.self)
    switch self {
    case .arcep: return text?.contains("Mnémo") == true ? .utf8 : .latin1
    case .russia: return text == nil ? nil : .utf8
    case .nanpa: return text == nil ? .latin1 : .utf8
    }
  }

  /// A line's text in `encoding`; nil for UTF-8 that is not valid.
  static func decode(_ bytes: ArraySlice<UInt8>, _ encoding: LineEncoding) -> String? {
    switch encoding {
    case .utf8: return String(validating: bytes, as: UTF8.self)
    case .latin1:
      // ISO-8859-1 is the first 256 code points: each byte past 127 becomes two of UTF-8.
      var utf8: [UInt8] = []
      utf8.reserveCapacity(bytes.count + 16)
      for byte in bytes {
        if byte < 0x80 {
          utf8.append(byte)
        } else {
          utf8.append(0xC0 | byte >> 6)
          utf8.append(0x80 | byte & 0x3F)
        }
      }
      return String(decoding: utf8, as: UTF8.self)
    }
  }

  /// A line that is not valid UTF-8 in a UTF-8 file: NANPA's company names are ASCII, and a
  /// stray byte past 127 is read as ISO-8859-1 rather than refused; the others refuse it.
  func fallbackDecode(_ bytes: ArraySlice<UInt8>) -> String? {
    self == .nanpa ? Self.decode(bytes, .latin1) : nil
  }

  /// A field without the spaces and tabs around it (ASCII only: what the plans pad with),
  /// without Foundation's character-set walk.
  static func trimmingBlanks(_ field: String) -> String {
    let utf8 = field.utf8
    guard let first = utf8.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
    let last = utf8.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })!
    if first == utf8.startIndex, last == utf8.index(before: utf8.endIndex) { return field }
    return String(field[first...last])
  }

  /// Whether `line` is the format's header. Russia's older files end at `Регион`, so its first
  /// six columns are what must match.
  func acceptsHeader(_ line: String) -> Bool {
    let columns = line.split(separator: ";", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let wanted = header.split(separator: ";").map(String.init)
    switch self {
    case .arcep: return columns == wanted
    case .russia: return columns.count >= 6 && Array(columns.prefix(6)) == Array(wanted.prefix(6))
    case .nanpa:
      // The two columns a range needs; the rest are read where the header puts them.
      guard let order = columnOrder(header: line) else { return false }
      return order[1] != nil && order[3] != nil
    }
  }

  /// ARCEP's territories and the country each dials as (ITU codes: +33, +590, +262, +594,
  /// +596, +508).
  static let arcepTerritories: [String: String] = [
    "Métropole": "FR", "National": "FR", "Guadeloupe, St Martin et St Barthélemy": "GP",
    "La Réunion": "RE", "La Réunion - Océan indien": "RE", "Mayotte": "YT", "Guyane": "GF",
    "Martinique": "MQ", "Saint Pierre et Miquelon": "PM",
  ]

  /// One row's range, nil when `filter` leaves the row out (its values read, its numbers not:
  /// a row left out is not checked against the plan), or why it is not a range.
  func range(
    _ fields: [String], line: Int, filter: NumberingPlan.Filter, normalizers: inout PlanNormalizers
  ) -> Result<NumberingPlan.Range?, NumberingPlan.Rejection> {
    func reject(_ reason: String) -> Result<NumberingPlan.Range?, NumberingPlan.Rejection> {
      .failure(NumberingPlan.Rejection(line: line, reason: reason))
    }
    switch self {
    case .arcep:
      guard fields.count == 6 else { return reject("\(fields.count) fields, not 6") }
      // A row the filter leaves out is left out before it is checked: `--operator LGC` must
      // not report the short codes of other operators as rejected.
      guard
        filter.keeps(operator: fields[3], operatorID: "", region: fields[4], allocated: "")
      else { return .success(nil) }
      let (start, end) = (fields[1], fields[2])
      guard Self.isDigits(start), Self.isDigits(end), start.count == end.count else {
        return reject("the range \(start)–\(end) is not two numbers of one length")
      }
      // Short codes (10xx, 3xxx, 118xxx) are dialled as they are, not as E.164 numbers.
      guard start.count >= 10, start.hasPrefix("0") else {
        return reject("\(start) is a short code, not a number CallKit can be given")
      }
      guard let country = Self.arcepTerritories[fields[4]] else {
        return reject("unknown territory \"\(fields[4])\"")
      }
      guard let allocated = Self.isoDate(fromDayMonthYear: fields[5]) else {
        return reject("the date \"\(fields[5])\" is not DD/MM/YYYY")
      }
      return Self.range(
        start, end, country: country, line: line, filter: filter, normalizers: &normalizers,
        values: (fields[3], "", fields[4], allocated, fields[0]))
    case .nanpa:
      return Self.nanpaRange(fields, line: line, filter: filter, normalizers: &normalizers)
    case .russia:
      guard fields.count >= 6 else { return reject("\(fields.count) fields, not 8") }
      let region =
        fields.count > 6 && !fields[6].isEmpty && fields[6] != "-" ? fields[6] : fields[5]
      let operatorID = fields.count > 7 ? fields[7] : ""
      guard
        filter.keeps(operator: fields[4], operatorID: operatorID, region: region, allocated: "")
      else { return .success(nil) }
      let code = fields[0]
      guard code.count == 3, Self.isDigits(code) else {
        return reject("the code \"\(code)\" is not 3 digits")
      }
      let (from, to) = (fields[1], fields[2])
      guard Self.isDigits(from), Self.isDigits(to), from.count <= 7, to.count <= 7 else {
        return reject("the range \(from)–\(to) is not two subscriber numbers of up to 7 digits")
      }
      func padded(_ part: String) -> String { String(repeating: "0", count: 7 - part.count) + part }
      let result = Self.range(
        "+7" + code + padded(from), "+7" + code + padded(to), country: "RU", line: line,
        filter: filter, normalizers: &normalizers,
        values: (fields[4], operatorID, region, "", code))
      if case .success(let range?) = result, let capacity = Int64(fields[3]),
        capacity != range.numberCount
      {
        return reject("the capacity says \(capacity), the range holds \(range.numberCount)")
      }
      return result
    }
  }

  /// One NANPA row (its fields in ``nanpaColumns``' order): an NPA-NXX's ten thousand numbers.
  private static func nanpaRange(
    _ fields: [String], line: Int, filter: NumberingPlan.Filter,
    normalizers: inout PlanNormalizers
  ) -> Result<NumberingPlan.Range?, NumberingPlan.Rejection> {
    func reject(_ reason: String) -> Result<NumberingPlan.Range?, NumberingPlan.Rejection> {
      .failure(NumberingPlan.Rejection(line: line, reason: reason))
    }
    let (state, code, company, use) = (fields[0], fields[1], fields[3], fields[6])
    let region =
      fields[4].isEmpty ? state : state.isEmpty ? fields[4] : fields[4] + ", " + state
    // Left out before it is checked, as an ARCEP row is.
    guard filter.keeps(operator: company, operatorID: fields[2], region: region, allocated: "")
    else { return .success(nil) }
    // `201-200`: seven bytes, the dash fourth (checked on the bytes: a million rows a file).
    let codeBytes = Array(code.utf8)
    guard codeBytes.count == 7, codeBytes[3] == UInt8(ascii: "-"),
      codeBytes.indices.allSatisfy({ $0 == 3 || isDigit(codeBytes[$0]) })
    else { return reject("the NPA-NXX \"\(code)\" is not two 3-digit codes") }
    let digits =
      String(decoding: codeBytes[0..<3], as: UTF8.self)
      + String(decoding: codeBytes[4..<7], as: UTF8.self)
    guard use.isEmpty || use == "AS" else {
      return reject("\(code) is not assigned (Use \(use))")
    }
    var allocated = ""
    // A time may follow the date (`05/12/2003 00:00:00`).
    let effective = fields[5]
    if !effective.isEmpty {
      let date = effective.utf8.firstIndex(of: 0x20).map { String(effective[..<$0]) } ?? effective
      guard let iso = isoDate(fromMonthDayYear: date) else {
        return reject("the date \"\(fields[5])\" is not MM/DD/YYYY")
      }
      allocated = iso
    }
    // Every NANP number dials as +1; NANPA's file holds the United States and its
    // territories, whose codes libphonenumber's US plan takes as possible numbers.
    return range(
      digits + "0000", digits + "9999", country: "US", line: line,
      filter: filter, normalizers: &normalizers,
      values: (company, fields[2], region, allocated, code))
  }

  /// The range from `start` to `end` (national or international forms of `country`), each end
  /// checked against the country's plan and the two a contiguous run of numbers.
  private static func range(
    _ start: String, _ end: String, country: String, line: Int, filter: NumberingPlan.Filter,
    normalizers: inout PlanNormalizers,
    values: (operator: String, operatorID: String, region: String, allocated: String, code: String)
  ) -> Result<NumberingPlan.Range?, NumberingPlan.Rejection> {
    func reject(_ reason: String) -> Result<NumberingPlan.Range?, NumberingPlan.Rejection> {
      .failure(NumberingPlan.Rejection(line: line, reason: reason))
    }
    guard
      filter.keeps(
        operator: values.operator, operatorID: values.operatorID, region: values.region,
        allocated: values.allocated)
    else { return .success(nil) }
    let first: Int64
    let last: Int64
    switch normalizers.international(start, country: country) {
    case .success(let number): first = number
    case .failure(let problem): return reject(problem.reason)
    }
    switch normalizers.international(end, country: country) {
    case .success(let number): last = number
    case .failure(let problem): return reject(problem.reason)
    }
    // The two ends must differ as the written forms do: a national prefix read differently at
    // the two ends would make a range of other numbers.
    guard first <= last, let startValue = Int64(start.filter(\.isNumber)),
      let endValue = Int64(end.filter(\.isNumber)), last - first == endValue - startValue
    else {
      return reject("\(start)–\(end) does not read as one run of numbers (+\(first)…+\(last))")
    }
    return .success(
      NumberingPlan.Range(
        first: first, last: last, operator: values.operator, operatorID: values.operatorID,
        region: values.region, allocated: values.allocated, code: values.code, line: line))
  }

  static func isDigits(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy(isDigit)
  }

  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// `1/21/2021` or `01/21/2021` → `2021-01-21`, as NANPA writes dates; nil otherwise.
  static func isoDate(fromMonthDayYear text: String) -> String? {
    guard let (month, day, year) = dateParts(text, firstWidths: 1...2, secondWidths: 1...2)
    else { return nil }
    return isoDate(year: year, month: month, day: day)
  }

  /// `21/01/2021` → `2021-01-21`; nil when it is not a date of that form.
  public static func isoDate(fromDayMonthYear text: String) -> String? {
    guard let (day, month, year) = dateParts(text, firstWidths: 2...2, secondWidths: 2...2)
    else { return nil }
    return isoDate(year: year, month: month, day: day)
  }

  /// The three numbers of `A/B/YYYY`, A and B of the widths given, the year of four digits;
  /// read on the bytes, as every row of a plan has a date.
  private static func dateParts(
    _ text: String, firstWidths: ClosedRange<Int>, secondWidths: ClosedRange<Int>
  ) -> (Int, Int, Int)? {
    var numbers: [Int] = []
    var width = 0
    var value = 0
    for byte in text.utf8 {
      if byte == UInt8(ascii: "/") {
        guard numbers.count < 2, width > 0 else { return nil }
        guard (numbers.isEmpty ? firstWidths : secondWidths).contains(width) else { return nil }
        numbers.append(value)
        (width, value) = (0, 0)
      } else {
        guard isDigit(byte), width < 4 else { return nil }
        (width, value) = (width + 1, value * 10 + Int(byte - UInt8(ascii: "0")))
      }
    }
    guard numbers.count == 2, width == 4 else { return nil }
    return (numbers[0], numbers[1], value)
  }

  /// `YYYY-MM-DD`, nil for a month or day out of range.
  private static func isoDate(year: Int, month: Int, day: Int) -> String? {
    guard (1...31).contains(day), (1...12).contains(month) else { return nil }
    func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let yearText = String(year)
    return String(repeating: "0", count: 4 - yearText.count) + yearText + "-" + twoDigits(month)
      + "-" + twoDigits(day)
  }
}
