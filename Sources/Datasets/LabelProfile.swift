/// How labels look: company names in one script with a realistic spread of lengths, or the few
/// repeated spam labels of the Chinese article.
public enum LabelProfile: String, CaseIterable, Codable, Sendable {
  /// Russian company names in Cyrillic ("ООО «Северная Стоматология», филиал на Ленина").
  case cyrillic
  /// Company names in Latin script ("Bright Dental Care LLC").
  case latin
  /// Chinese company names ("深圳市腾达科技有限公司").
  case chinese
  /// The three labels of the Chinese article: 骚扰电话, 诈骗电话, 广告推销.
  case spam

  /// The label of entry `index` for `seed`: a pure function, so every output format and every
  /// run regenerates the same label without storing it.
  public func label(seed: UInt64, index: Int) -> String {
    var random = SplitMix64(seed: SplitMix64.mix(seed ^ 0x4C41_4245_4C53, UInt64(index)))
    func pick(_ words: [String]) -> String { words[Int(random.next() % UInt64(words.count))] }
    func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
    switch self {
    case .spam:
      return pick(Self.spamLabels)
    case .cyrillic:
      // Calibrated on 2GIS's figure (4,000,000 numbers with names = 140 MB of text, about 35
      // bytes per line): mostly short names, a tail of long ones; about 24 UTF-8 bytes on average.
      let roll = random.next() % 100
      if roll < 30 { return pick(Self.cyrillicBrands) }
      if roll < 80 { return pick(Self.cyrillicTypes) + " " + pick(Self.cyrillicBrands) }
      if roll < 95 { return pick(Self.cyrillicForms) + " «" + pick(Self.cyrillicBrands) + "»" }
      return pick(Self.cyrillicTypes) + " " + pick(Self.cyrillicBrands) + ", филиал на ул. "
        + pick(Self.cyrillicStreets) + ", " + String(1 + random.next() % 150)
    case .latin:
      let roll = random.next() % 100
      if roll < 40 { return pick(Self.latinAdjectives) + " " + pick(Self.latinNouns) }
      if roll < 85 {
        return pick(Self.latinAdjectives) + " " + pick(Self.latinNouns) + " "
          + pick(Self.latinForms)
      }
      return pick(Self.latinAdjectives) + " " + pick(Self.latinNouns) + " " + pick(Self.latinForms)
        + ", " + pick(Self.latinCities) + " office"
    case .chinese:
      var label = pick(Self.chineseCities) + pick(Self.chineseBrands)
      if chance(40) { label += pick(Self.chineseBrands) }
      label += pick(Self.chineseTrades) + "有限公司"
      if chance(20) { label += pick(Self.chineseCities) + "分公司" }
      return label
    }
  }

  static let spamLabels = ["骚扰电话", "诈骗电话", "广告推销"]
  static let cyrillicForms = ["ООО", "ООО", "ООО", "ИП", "АО", "ПАО", "ЗАО", "ГБУЗ"]
  static let cyrillicTypes = [
    "Аптека", "Кафе", "Салон", "Клиника", "Магазин", "Автосервис", "Банк", "Отделение", "Ресторан",
    "Пункт выдачи", "Стоматология", "Такси", "Гостиница", "Химчистка", "Ателье", "Пекарня",
  ]
  static let cyrillicBrands = [
    "Ромашка", "Улыбка", "Кофемания", "Ригла", "Магнит", "Пятёрочка", "Вкусвилл", "Спортмастер",
    "Эльдорадо", "Буквоед", "Шоколадница", "Теремок", "Самокат", "Лента", "Перекрёсток", "Горздрав",
    "Инвитро", "Гемотест", "Медси", "Сбербанк", "ВТБ", "Альфа-Банк", "Почта России", "МФЦ",
    "Росгосстрах", "Озон", "Ситилинк", "Леруа Мерлен", "Северная", "Фортуна", "Уют", "Мир",
  ]
  static let cyrillicStreets = [
    "Ленина", "Тверская", "Садовая", "Мира", "Гагарина", "Пушкина", "Советская", "Невский проспект",
  ]
  static let latinForms = ["LLC", "Inc.", "Ltd", "Co.", "Group", "Services"]
  static let latinAdjectives = [
    "Bright", "Northern", "City", "First", "Golden", "Pacific", "Evergreen", "United", "Rapid",
    "Family", "Summit", "Harbor", "Liberty", "Prime", "Blue Ridge", "Silver",
  ]
  static let latinNouns = [
    "Dental Care", "Plumbing", "Auto Repair", "Pizza", "Pharmacy", "Delivery", "Law Office",
    "Realty", "Cleaners", "Bakery", "Taxi", "Printing", "Veterinary Clinic", "Dance School",
    "Florist", "Insurance", "Hotel", "Fitness", "Roofing", "Accounting",
  ]
  static let latinCities = [
    "Boston", "Seattle", "Toronto", "Austin", "Denver", "Miami", "Vancouver",
  ]
  static let chineseCities = ["深圳市", "北京市", "上海市", "广州市", "杭州市", "苏州市", "青岛市", "天津市"]
  static let chineseBrands = [
    "腾达", "华强", "中科", "鑫源", "恒通", "金桥", "新世纪", "宏图", "东方", "瑞丰", "天和", "永盛",
  ]
  static let chineseTrades = [
    "科技", "贸易", "物流", "电子", "餐饮管理", "房地产经纪", "医疗器械", "教育咨询", "装饰工程", "保险代理",
  ]
}
