import HTTPServer
import Sectional

extension PageRoutes {
    /// Who an answer is for and what it is made from so far: its visitor's
    /// stamp, its layout's, then its cards'.
    struct Made {
        var visit = Visit.nobody
        var basis = KeptAnswers.Basis()
    }

    /// The three answers a page gives, each kept apart.
    enum AnswerKind: String {
        case page, fragment, description
    }

    /// A `304` for a request that names the tag of an answer still standing:
    /// sent before anything is read, loaded or rendered. `nil` for anything
    /// else, which the route answers in full.
    func unchangedAnswer(_ kind: AnswerKind, to request: Request) -> Response? {
        guard let keptAnswers, let hub = site.live, let asked = request.headers["If-None-Match"], let key = answerKey(kind, request),
            let answer = keptAnswers.standing(key, versions: hub), EntityTag.matches(asked, answer.tag)
        else { return nil }
        var headers = kind == .description ? Response.jsonHeaders : site.htmlHeaders
        headers.add("Vary", kind == .description ? Self.descriptionVaries : "Cookie")
        headers.add("ETag", answer.tag)
        headers["Cache-Control"] = Self.revalidatedCacheControl
        var response = Response(status: .notModified, headers: headers, body: .bytes([]))
        response.logUser = answer.user
        return response
    }

    /// `response`, its tag kept with what it was made from (`made` and
    /// `cards`) when that is versioned throughout.
    func keeping(
        _ response: consuming Response, _ kind: AnswerKind, _ request: Request, _ made: Made, cards: some Sequence<SectionController>
    ) -> Response {
        if let keptAnswers, response.status == .ok || response.status == .notModified, let tag = response.headers["ETag"],
            let key = answerKey(kind, request)
        {
            var basis = made.basis
            for card in cards { basis.add(card: card) }
            keptAnswers.keep(tag: tag, user: made.visit.name, basis: basis, for: key)
        }
        return consume response  // `Response` says why
    }

    /// What a kept answer is found under: its kind, the request's path and
    /// query, and the credential it carries (`SignIn.credential(in:)`);
    /// `nil` when the sign-in cannot tell the credential.
    private func answerKey(_ kind: AnswerKind, _ request: Request) -> String? {
        guard let credential = signIn == nil ? "" : signIn?.credential(in: request) else { return nil }
        var parts = [kind.rawValue, request.path]
        for item in request.query { parts += [item.name, item.value] }
        parts.append(credential)
        return SectionController.cacheKey(parts)
    }
}
