extension Request {
    /// The fields of an HTML form's body (`application/x-www-form-urlencoded`),
    /// in order, repeated names kept.
    /// - Throws: a 415 `HTTPError` for any other content type, a 400 one for
    ///   a body that is not valid UTF-8, has malformed percent-encoding, or a
    ///   control character other than tab and line ends (a NUL above all: C
    ///   code downstream would end the text there).
    public func formFields() throws(HTTPError) -> [QueryItem] {
        let mediaType = headers["Content-Type"]?.split(separator: ";").first?.trimmingSpaces.lowercased()
        guard mediaType == "application/x-www-form-urlencoded" else {
            throw HTTPError(.unsupportedMediaType, "The body must be a form (application/x-www-form-urlencoded).")
        }
        guard let text = String(validating: body, as: UTF8.self) else {
            throw HTTPError(.badRequest, "The form body is not valid UTF-8.")
        }
        let fields: [QueryItem]
        do {
            fields = try QueryItem.parse(text[...])
        } catch {
            throw HTTPError(.badRequest, "The form body has malformed percent-encoding.")
        }
        for field in fields {
            if let control = (field.name + field.value).unicodeScalars.first(where: Self.isRefusedControl) {
                let code = "U+" + String(control.value, radix: 16, uppercase: true).leftPadded(to: 4)
                let name = String(field.name.unicodeScalars.filter { !Self.isRefusedControl($0) })
                throw HTTPError(.badRequest, "The form field \"\(name)\" holds a control character (\(code)), which no field accepts.")
            }
        }
        return fields
    }

    /// C0 controls and DEL, but for tab, line feed and carriage return, which a text area sends.
    static func isRefusedControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0x7F
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
