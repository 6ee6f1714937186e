/// Cents as the reference page writes them: `$2,543.10`, `-$432.99`.
enum Dollars {
    static func format(_ cents: Int) -> String {
        let magnitude = cents.magnitude
        var whole = String(magnitude / 100)
        var grouped = ""
        while whole.count > 3 {
            grouped = "," + whole.suffix(3) + grouped
            whole.removeLast(3)
        }
        let fraction = magnitude % 100
        return (cents < 0 ? "-$" : "$") + whole + grouped + (fraction < 10 ? ".0" : ".") + String(fraction)
    }
}
