import Sectional

/// A financial check-up quiz, answered by a plain GET form; once every
/// question is answered it shows the score and tips.
final class CheckupSection: SectionController, CatalogSection {
    static let id: SectionID = "checkup"
    static let title = "Financial check-up"
    private let quiz: CheckupQuiz
    private let answers: [String: String]
    /// Where the form submits: the page, with its current composition kept.
    private let formAction: String
    private let hiddenItems: [(name: String, value: String)]

    init(quiz: CheckupQuiz, answers: [String: String], formAction: String, hiddenItems: [(name: String, value: String)]) {
        self.quiz = quiz
        self.answers = answers
        self.formAction = formAction
        self.hiddenItems = hiddenItems
        super.init(id: Self.id, title: Self.title)
    }

    override func render(into html: inout HTMLWriter) {
        if answers.count == quiz.questions.count { renderResult(into: &html) }
        // ForEach, not `for`: a loop builds every question's markup into an array first.
        form(.class("checkup"), .method("get"), .action(formAction)) {
            ForEach(hiddenItems) { item in input(.type("hidden"), .name(item.name), .value(item.value)) }
            ForEach(quiz.questions) { question in
                let fieldID = "checkup-" + question.id
                let chosen = self.answers[question.id]
                div(.class("question")) {
                    label(.labelFor(fieldID)) { question.text }
                    select(.id(fieldID), .name("checkup")) {
                        option(.value("")) { "Choose…" }
                        ForEach(question.choices) { choice in
                            let value = question.id + ":" + choice.id
                            if chosen == choice.id {
                                option(.value(value), .selected) { choice.label }
                            } else {
                                option(.value(value)) { choice.label }
                            }
                        }
                    }
                }
            }
            button(.type("submit")) { answers.isEmpty ? "See my result" : "Update my result" }
        }.render(into: &html)
    }

    private func renderResult(into html: inout HTMLWriter) {
        let (points, possible) = quiz.score(answers)
        let verdict = points * 3 >= possible * 2 ? "Solid footing" : points * 3 >= possible ? "On your way" : "Room to grow"
        let tips = quiz.questions.filter { question in
            question.choices.first { $0.id == answers[question.id] }.map { $0.points < question.maxPoints } ?? true
        }.map(\.tip)
        div(.class("checkup-result"), .role("status")) {
            p { strong { "\(verdict): \(points) of \(possible) points." } }
            if !tips.isEmpty {
                ul { for tip in tips { li { tip } } }
            }
        }.render(into: &html)
    }
}
