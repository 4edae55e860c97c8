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
      var name = pick(Self.cyrillicAdjectives) + " " + pick(Self.cyrillicNouns)
      if chance(25) { name += " " + pick(Self.cyrillicNouns).lowercased() }
      var label = pick(Self.cyrillicForms) + " «" + name + "»"
      if chance(30) { label += ", филиал на ул. " + pick(Self.cyrillicStreets) + ", " + String(1 + random.next() % 150) }
      return label
    case .latin:
      var label = pick(Self.latinAdjectives) + " " + pick(Self.latinNouns)
      if chance(30) { label += " & " + pick(Self.latinNouns) }
      label += " " + pick(Self.latinForms)
      if chance(20) { label += ", " + pick(Self.latinCities) + " office" }
      return label
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
  static let cyrillicAdjectives = [
    "Северная", "Городская", "Первая", "Центральная", "Новая", "Семейная", "Народная", "Столичная",
    "Сибирская", "Уральская", "Волжская", "Быстрая", "Добрая", "Честная", "Главная", "Профи",
  ]
  static let cyrillicNouns = [
    "Стоматология", "Клиника", "Автомойка", "Пиццерия", "Аптека", "Доставка", "Мастерская",
    "Типография", "Химчистка", "Пекарня", "Служба Такси", "Ремонт Квартир", "Юридическая Контора",
    "Ветклиника", "Школа Танцев", "Автосервис", "Цветочная Лавка", "Оптика", "Гостиница", "Риелторская Компания",
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
  static let latinCities = ["Boston", "Seattle", "Toronto", "Austin", "Denver", "Miami", "Vancouver"]
  static let chineseCities = ["深圳市", "北京市", "上海市", "广州市", "杭州市", "苏州市", "青岛市", "天津市"]
  static let chineseBrands = [
    "腾达", "华强", "中科", "鑫源", "恒通", "金桥", "新世纪", "宏图", "东方", "瑞丰", "天和", "永盛",
  ]
  static let chineseTrades = [
    "科技", "贸易", "物流", "电子", "餐饮管理", "房地产经纪", "医疗器械", "教育咨询", "装饰工程", "保险代理",
  ]
}
