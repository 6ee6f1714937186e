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

    /// No data: the content is the answers' and the form's alone.
    override var cacheKey: String? {
        var parts = [formAction, String(hiddenItems.count)]
        for item in hiddenItems { parts += [item.name, item.value] }
        for (question, answer) in answers.sorted(by: { $0.key < $1.key }) { parts += [question, answer] }
        return Self.cacheKey(parts)
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
                        HTMLRenderer { html in Self.renderChoices(of: question, chosen: chosen, into: &html) }
                    }
                }
            }
            button(.type("submit"), .class("primary")) { answers.isEmpty ? "See my result" : "Update my result" }
        }.render(into: &html)
    }

    /// A question's options, `<option value="QUESTION:CHOICE">`, written in
    /// place: as elements each made its value string and, when chosen, an array of attributes.
    private static func renderChoices(of question: CheckupQuiz.Question, chosen: String?, into html: inout HTMLWriter) {
        for choice in question.choices {
            html.element(
                Tag.option.self,
                attributes: { attributes in
                    attributes.attribute("value") { value in
                        value.text(question.id)
                        value.text(":")
                        value.text(choice.id)
                    }
                    if chosen == choice.id { attributes.attribute("selected") }
                }
            ) { $0.text(choice.label) }
        }
    }

    private func renderResult(into html: inout HTMLWriter) {
        let (points, possible) = quiz.score(answers)
        // The box says what the score means: green only for a good one.
        let (verdict, tone) =
            points * 3 >= possible * 2
            ? ("Solid footing", "checkup-result good")
            : points * 3 >= possible ? ("On your way", "checkup-result fair") : ("Room to grow", "checkup-result poor")
        let tips = quiz.questions.filter { question in
            question.choices.first { $0.id == answers[question.id] }.map { $0.points < question.maxPoints } ?? true
        }.map(\.tip)
        div(.class(tone), .role("status")) {
            p { strong { "\(verdict): \(points) of \(possible) points." } }
            if !tips.isEmpty {
                ul { for tip in tips { li { tip } } }
            }
        }.render(into: &html)
    }
}
