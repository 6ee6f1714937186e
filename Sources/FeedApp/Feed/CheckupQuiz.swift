import HTTPServer

/// The financial check-up: a few questions, each answered with one choice.
/// Answers travel in the query as `checkup=QUESTION:CHOICE`, one per question.
public struct CheckupQuiz: Sendable {
    public struct Choice: Sendable {
        public var id: String
        public var label: String
        public var points: Int
    }

    public struct Question: Sendable {
        public var id: String
        public var text: String
        public var choices: [Choice]
        /// Shown when the answer scored below full marks.
        public var tip: String

        var maxPoints: Int { choices.map(\.points).max() ?? 0 }
    }

    public var questions: [Question]

    public static let standard = CheckupQuiz(questions: [
        Question(
            id: "emergency-fund", text: "How many months of expenses could your savings cover?",
            choices: [
                Choice(id: "none", label: "Less than one", points: 0),
                Choice(id: "1-2", label: "One or two", points: 1),
                Choice(id: "3-5", label: "Three to five", points: 2),
                Choice(id: "6-plus", label: "Six or more", points: 3),
            ], tip: "Build an emergency fund of three to six months of expenses."),
        Question(
            id: "retirement", text: "Do you save for retirement?",
            choices: [
                Choice(id: "no", label: "Not yet", points: 0),
                Choice(id: "sometimes", label: "Now and then", points: 1),
                Choice(id: "match", label: "Yes, up to my employer's match", points: 2),
                Choice(id: "max", label: "Yes, as much as I am allowed", points: 3),
            ], tip: "Contribute at least enough to get your employer's full match."),
        Question(
            id: "card-balance", text: "How do you handle credit card balances?",
            choices: [
                Choice(id: "carry", label: "I carry a balance most months", points: 0),
                Choice(id: "sometimes", label: "I sometimes carry a balance", points: 1),
                Choice(id: "full", label: "I pay in full every month", points: 3),
            ], tip: "Paying cards in full avoids interest, often above 20% a year."),
    ])

    /// The answers in a query, by question id.
    /// - Throws: a 400 `HTTPError` saying which value is not a valid choice, and what is.
    public func answers(from values: [String]) throws(HTTPError) -> [String: String] {
        var answers: [String: String] = [:]
        for value in values where !value.isEmpty {
            let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let question = questions.first(where: { $0.id == parts[0] }) else {
                throw HTTPError(.badRequest, "checkup '\(value)' names no question. Questions: \(questions.map(\.id).joined(separator: ", ")).")
            }
            guard question.choices.contains(where: { $0.id == parts[1] }) else {
                let valid = question.choices.map { "\(question.id):\($0.id)" }
                throw HTTPError(.badRequest, "checkup '\(value)' is not a choice. Valid: \(valid.joined(separator: ", ")).")
            }
            answers[question.id] = parts[1]
        }
        return answers
    }

    /// Points scored and the most that could be.
    func score(_ answers: [String: String]) -> (points: Int, possible: Int) {
        questions.reduce((0, 0)) { total, question in
            let points = question.choices.first { $0.id == answers[question.id] }?.points ?? 0
            return (total.0 + points, total.1 + question.maxPoints)
        }
    }
}
