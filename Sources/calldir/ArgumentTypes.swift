import ArgumentParser
import ProcessSpawning

// Enums the parser reads itself: a bad value is a usage error that lists the valid ones, before
// any command runs.
extension MeasuredAllocator.Choice: ExpressibleByArgument {}
