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

  /// Who publishes it, for errors.
  var publisher: String {
    switch self {
    case .arcep: "ARCEP"
    case .russia: "Russia's Ministry of Digital Development"
    }
  }

  /// The file's published name.
  var fileName: String {
    switch self {
    case .arcep: "MAJNUM.csv"
    case .russia: "register of numbering capacity (DEF-9xx.csv, ABC-3xx.csv…)"
    }
  }

  /// The header line as published.
  var header: String {
    switch self {
    case .arcep: "EZABPQM;Tranche_Debut;Tranche_Fin;Mnémo;Territoire;Date_Attribution"
    case .russia: "АВС/ DEF;От;До;Емкость;Оператор;Регион;Территория ГАР;ИНН"
    }
  }

  var encodingName: String {
    switch self {
    case .arcep: "ISO-8859-1"
    case .russia: "UTF-8"
    }
  }

  var quoting: Quoting {
    switch self {
    case .arcep: .rfc4180
    case .russia: .none
    }
  }

  /// The file's text: ISO-8859-1 maps each byte to one character; UTF-8 must be valid.
  func decode(_ bytes: [UInt8]) -> String? {
    switch self {
    case .arcep:
      // A file already in UTF-8 (a copy re-saved by an editor) is taken as it is.
      if let text = String(validatingUTF8Bytes: bytes), text.contains("Mnémo") { return text }
      return String(bytes.map { Character(Unicode.Scalar($0)) })
    case .russia:
      return String(validatingUTF8Bytes: bytes)
    }
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
    }
  }

  /// ARCEP's territories and the country each dials as (ITU codes: +33, +590, +262, +594,
  /// +596, +508).
  static let arcepTerritories: [String: String] = [
    "Métropole": "FR", "National": "FR", "Guadeloupe, St Martin et St Barthélemy": "GP",
    "La Réunion": "RE", "La Réunion - Océan indien": "RE", "Mayotte": "YT", "Guyane": "GF",
    "Martinique": "MQ", "Saint Pierre et Miquelon": "PM",
  ]

  /// One row's range, or why it is not one.
  func range(_ fields: [String], line: Int, normalizers: inout PlanNormalizers)
    -> Result<NumberingPlan.Range, NumberingPlan.Rejection>
  {
    func reject(_ reason: String) -> Result<NumberingPlan.Range, NumberingPlan.Rejection> {
      .failure(NumberingPlan.Rejection(line: line, reason: reason))
    }
    switch self {
    case .arcep:
      guard fields.count == 6 else { return reject("\(fields.count) fields, not 6") }
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
        start, end, country: country, line: line, normalizers: &normalizers,
        values: (fields[3], "", fields[4], allocated, fields[0]))
    case .russia:
      guard fields.count >= 6 else { return reject("\(fields.count) fields, not 8") }
      let code = fields[0]
      guard code.count == 3, Self.isDigits(code) else {
        return reject("the code \"\(code)\" is not 3 digits")
      }
      let (from, to) = (fields[1], fields[2])
      guard Self.isDigits(from), Self.isDigits(to), from.count <= 7, to.count <= 7 else {
        return reject("the range \(from)–\(to) is not two subscriber numbers of up to 7 digits")
      }
      func padded(_ part: String) -> String { String(repeating: "0", count: 7 - part.count) + part }
      let region =
        fields.count > 6 && !fields[6].isEmpty && fields[6] != "-" ? fields[6] : fields[5]
      let result = Self.range(
        "+7" + code + padded(from), "+7" + code + padded(to), country: "RU", line: line,
        normalizers: &normalizers,
        values: (fields[4], fields.count > 7 ? fields[7] : "", region, "", code))
      if case .success(let range) = result, let capacity = Int64(fields[3]),
        capacity != range.numberCount
      {
        return reject("the capacity says \(capacity), the range holds \(range.numberCount)")
      }
      return result
    }
  }

  /// The range from `start` to `end` (national or international forms of `country`), each end
  /// checked against the country's plan and the two a contiguous run of numbers.
  private static func range(
    _ start: String, _ end: String, country: String, line: Int,
    normalizers: inout PlanNormalizers,
    values: (operator: String, operatorID: String, region: String, allocated: String, code: String)
  ) -> Result<NumberingPlan.Range, NumberingPlan.Rejection> {
    func reject(_ reason: String) -> Result<NumberingPlan.Range, NumberingPlan.Rejection> {
      .failure(NumberingPlan.Rejection(line: line, reason: reason))
    }
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
    !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  /// `21/01/2021` → `2021-01-21`; nil when it is not a date of that form.
  public static func isoDate(fromDayMonthYear text: String) -> String? {
    let parts = text.split(separator: "/").map(String.init)
    guard parts.count == 3, parts.allSatisfy(isDigits), parts[0].count == 2, parts[1].count == 2,
      parts[2].count == 4, let day = Int(parts[0]), let month = Int(parts[1]),
      (1...31).contains(day), (1...12).contains(month)
    else { return nil }
    return "\(parts[2])-\(parts[1])-\(parts[0])"
  }
}
