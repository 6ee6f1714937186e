extension Request {
    /// The fields of an HTML form's body (`application/x-www-form-urlencoded`),
    /// in order, repeated names kept.
    /// - Throws: a 415 `HTTPError` for any other content type, a 400 one for
    ///   a body that is not valid UTF-8 or has malformed percent-encoding.
    public func formFields() throws(HTTPError) -> [QueryItem] {
        let mediaType = headers["Content-Type"]?.split(separator: ";").first?.trimmingSpaces.lowercased()
        guard mediaType == "application/x-www-form-urlencoded" else {
            throw HTTPError(.unsupportedMediaType, "The body must be a form (application/x-www-form-urlencoded).")
        }
        guard let text = String(validating: body, as: UTF8.self) else {
            throw HTTPError(.badRequest, "The form body is not valid UTF-8.")
        }
        do {
            return try QueryItem.parse(text[...])
        } catch {
            throw HTTPError(.badRequest, "The form body has malformed percent-encoding.")
        }
    }
}
