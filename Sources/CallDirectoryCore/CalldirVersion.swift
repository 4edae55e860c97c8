/// calldir's version, the one constant `calldir --version` prints and an app can log beside
/// its own: semantic versioning, with the changes of each in the repository's CHANGELOG.md.
/// No release is tagged yet, so a package depends on a commit (`revision:`), not on a version.
public enum CalldirVersion {
  /// "MAJOR.MINOR.PATCH", or with a pre-release suffix ("0.1.0-dev").
  public static let current = "0.1.0-dev"
}
