import Foundation

/// Turns a FHIR `Contract` (STU3 or R4 shape) into a `ConsentDocument`, exactly as C3-PRO does (docs/C3PRO.md).
///
/// Lenient about members it does not read (they are kept in the Contract for signing); strict about the ones it
/// does: a term that cannot become a section is skipped with a warning diagnostic, and a Contract with no usable term is an
/// error carrying C3's message.
public enum ContractConverter {
    public static let sectionExtensionURL = "http://fhir-registry.smarthealthit.org/StructureDefinition/ORKConsentSection"

    /// C3's message for a Contract without usable terms (`C3Error.consentContractHasNoTerms`).
    public static let noTermsMessage =
        "The Contract resource does not have any terms that can be used for consenting"
    /// C3's message for a term without a deciding coding (`C3Error.consentSectionHasNoType`).
    public static let noTypeMessage = "Looking for consent type in ContractTerm.type.coding but none was found"
    /// C3's message for an unknown section code (`C3Error.consentSectionTypeUnknownToResearchKit`).
    public static func unknownTypeMessage(_ code: String) -> String {
        "Unknown consent section type \u{201C}\(code)\u{201D}"
    }

    /// Converts a Contract.
    ///
    /// - Parameters:
    ///   - contract: the parsed Contract.
    ///   - contractFile: the file name, for messages.
    ///   - files: reads `htmlContentFile` pages; nil when the Contract has no folder (files then count as missing).
    ///   - texts: the built-in texts of the Contract's language: default section titles, document titles, team.
    /// - Throws: `ConsentCoreError` `.notAContract`, `.invalidField`, `.contractHasNoTerms`, or a file error of an
    ///   HTML page that exists but is unreadable, too large or not UTF-8.
    public static func document(
        from contract: JSONValue, contractFile: String, files: StudyFileReader?, texts: BuiltInTexts = .english
    ) throws -> ConsentDocument {
        guard contract.objectValue != nil else {
            throw ConsentCoreError(.notAContract, "expected a FHIR Contract object, found \(contract.typeName)", file: contractFile)
        }
        guard contract["resourceType"]?.stringValue == "Contract" else {
            let found = contract["resourceType"]?.stringValue.map { "resourceType \"\($0)\"" } ?? "no resourceType"
            throw ConsentCoreError(.notAContract, "expected resourceType \"Contract\", found \(found)", file: contractFile)
        }
        var diagnostics: [StudyDiagnostic] = []
        let contractName = (contractFile as NSString).lastPathComponent
        guard let termValue = contract["term"] else {
            throw ConsentCoreError(.contractHasNoTerms, noTermsMessage, file: contractFile)
        }
        guard let terms = termValue.arrayValue else {
            throw ConsentCoreError(.invalidField, "Contract.term must be an array, found \(termValue.typeName)", file: contractFile)
        }
        var sections: [ConsentSection] = []
        for (index, term) in terms.enumerated() {
            do {
                sections.append(
                    try section(
                        from: term, index: index, contractName: contractName, files: files, texts: texts,
                        diagnostics: &diagnostics))
            } catch let skip as TermSkipped {
                diagnostics.append(
                    .warning(.termSkipped, file: contractName, location: "term[\(index)]", "term[\(index)] skipped: \(skip.reason)"))
            }
        }
        guard !sections.isEmpty else {
            throw ConsentCoreError(.contractHasNoTerms, noTermsMessage, file: contractFile)
        }
        for section in sections where !section.isInDocument && section.htmlContentFile == nil
            && !diagnostics.contains(where: { $0.location == "term[\(section.termIndex)]" && $0.code == .fileMissing })
        {
            diagnostics.append(
                .warning(
                    .sectionWithoutHTML, file: contractName, location: "term[\(section.termIndex)]",
                    "term[\(section.termIndex)] (\(section.type.rawValue)) has no HTML: its scene has no \"Learn more\" and it is "
                        + "left out of the review document and the PDF"))
        }
        let team = teamName(contract, contractName: contractName, texts: texts, diagnostics: &diagnostics)
        let eligibility = eligibilityRequirements(contract, contractName: contractName, diagnostics: &diagnostics)
        let key = try KeyInformationReader.read(in: contract, contractName: contractName, files: files)
        diagnostics += key.diagnostics
        // After the key information: a question may be about it.
        let comprehension = ComprehensionReader.questions(
            in: contract, sections: sections, hasKeyInformation: key.keyInformation != nil, contractName: contractName)
        diagnostics += comprehension.diagnostics
        let optional = try OptionalElementReader.elements(in: contract, contractName: contractName, files: files)
        diagnostics += optional.diagnostics
        var document = ConsentDocument(sections: sections, eligibility: eligibility, teamName: team, diagnostics: diagnostics)
        document.comprehension = comprehension.questions
        document.keyInformation = key.keyInformation
        document.optionalElements = optional.elements
        document.title = texts.documentTitle
        document.signaturePageTitle = texts.signaturePageTitle
        document.signaturePageContent = texts.signaturePageContent
        return document
    }

    /// Why a term did not become a section; it is skipped, never fatal on its own.
    private struct TermSkipped: Error {
        var reason: String
    }

    private static func section(
        from term: JSONValue, index: Int, contractName: String, files: StudyFileReader?, texts: BuiltInTexts,
        diagnostics: inout [StudyDiagnostic]
    ) throws -> ConsentSection {
        guard term.objectValue != nil else { throw TermSkipped(reason: "a term must be an object, found \(term.typeName)") }
        let type = try sectionType(of: term)
        var section = ConsentSection(termIndex: index, type: type, title: texts.sectionTitle(type))
        if let text = term["text"] {
            if let s = text.stringValue { section.summary = s } else {
                diagnostics.append(
                    .warning(
                        .termTextIgnored, file: contractName, location: "term[\(index)].text",
                        "term[\(index)].text is \(text.typeName), not a string; the summary is left out"))
            }
        }
        // Only the first ORKConsentSection extension is read; its nested entries apply in order, later ones win.
        let extensions = term["extension"]?.arrayValue ?? []
        guard let sectionExtension = extensions.first(where: { $0["url"]?.stringValue == sectionExtensionURL }) else {
            return section
        }
        for entry in sectionExtension["extension"]?.arrayValue ?? [] {
            let value = entry["valueString"]?.stringValue
            switch entry["url"]?.stringValue {
            case "title":
                section.title = value  // no valueString: C3 sets the title to nil, losing even the default
            case "htmlContent":
                if let value { section.htmlContent = value; section.htmlContentFile = nil }
            case "htmlContentFile":
                guard let value else { continue }
                if let path = files?.htmlPath(named: value), let files {
                    section.htmlContent = try files.text(path)
                    section.htmlContentFile = value
                } else {
                    diagnostics.append(
                        .error(
                            .fileMissing, file: "\(value).html", location: "term[\(index)]",
                            "term[\(index)]: HTML file \"\(value).html\" not found (looked in the study folder and HTMLContent/)"))
                }
            case "image":
                section.image = value
            case "animation":
                section.animation = value
            default:
                continue
            }
        }
        return section
    }

    /// The first accepted coding with a code decides: a coding with another system is skipped, one without a
    /// system is accepted, one without a code is skipped; an unknown code fails the term at once.
    ///
    /// A skipped term's reason starts with C3-PRO's message and then says what to change, so a coordinator can
    /// fix the Contract from `consentctl lint` alone.
    private static func sectionType(of term: JSONValue) throws -> ConsentSectionType {
        let codings = term["type"]?["coding"]?.arrayValue ?? []
        for coding in codings {
            if let system = coding["system"], system.stringValue != ConsentSectionType.codingSystem { continue }
            guard let code = coding["code"]?.stringValue else { continue }
            guard let type = ConsentSectionType(rawValue: code) else {
                throw TermSkipped(reason: unknownTypeMessage(code) + ": " + knownTypesHint)
            }
            return type
        }
        throw TermSkipped(reason: noTypeMessage + ": " + noTypeHint(codings))
    }

    /// The known section types and where they go, for a reason.
    static var knownTypesHint: String {
        "the known types are " + ConsentSectionType.allCases.map(\.rawValue).joined(separator: ", ")
            + " (case-sensitive), as the code of a coding with system \"\(ConsentSectionType.codingSystem)\""
    }

    /// Why none of a term's codings gave a type, and what to change.
    private static func noTypeHint(_ codings: [JSONValue]) -> String {
        let researchKit = ConsentSectionType.codingSystem
        let systems = codings.compactMap { $0["system"]?.stringValue }
        if let wrong = systems.first(where: { $0.hasPrefix(researchKit) && $0 != researchKit }) {
            // ResearchKit's documentation page (with `.html`) is not its code system.
            return "the coding's system \"\(wrong)\" is not ResearchKit's code system; change it to \"\(researchKit)\""
        }
        if codings.isEmpty {
            return "the term has no type.coding; add {\"system\": \"\(researchKit)\", \"code\": <type>} where "
                + knownTypesHint.replacingOccurrences(of: "the known types are", with: "<type> is one of")
        }
        if !systems.isEmpty, systems.count == codings.count {
            let listed = Array(Set(systems)).sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            return "only codings with system \"\(researchKit)\" (or none) are read, not \(listed); add one whose code is one of "
                + ConsentSectionType.allCases.map(\.rawValue).joined(separator: ", ")
        }
        return "no ResearchKit coding has a code; give it one of " + ConsentSectionType.allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// Resolves a `#id` reference against `contained`; nil (with a warning) when it is not contained or not of the
    /// expected type. Other references need a FHIR server, which the kiosk does not consult.
    private static func contained(
        _ reference: JSONValue?, in contract: JSONValue, type: String, role: String, contractName: String,
        diagnostics: inout [StudyDiagnostic]
    ) -> JSONValue? {
        func unresolved(_ message: String) {
            diagnostics.append(.warning(.referenceUnresolved, file: contractName, location: role, message))
        }
        guard let reference = reference?["reference"]?.stringValue else { return nil }
        guard reference.hasPrefix("#") else {
            unresolved("\(role) reference \"\(reference)\" is not contained in the Contract and is not resolved")
            return nil
        }
        let id = String(reference.dropFirst())
        guard let resource = contract["contained"]?.arrayValue?.first(where: { $0["id"]?.stringValue == id }) else {
            unresolved("\(role) reference \"\(reference)\" names no contained resource")
            return nil
        }
        guard resource["resourceType"]?.stringValue == type else {
            let found = resource["resourceType"]?.stringValue ?? "no resourceType"
            unresolved("\(role) reference \"\(reference)\" is a \(found), not a \(type)")
            return nil
        }
        return resource
    }

    private static func teamName(
        _ contract: JSONValue, contractName: String, texts: BuiltInTexts, diagnostics: inout [StudyDiagnostic]
    ) -> String {
        let organization = contained(
            contract["authority"]?[0], in: contract, type: "Organization", role: "authority[0]",
            contractName: contractName, diagnostics: &diagnostics)
        guard let name = organization?["name"]?.stringValue, !name.isEmpty else {
            return texts.defaultTeamName
        }
        return texts.teamName(organization: name)
    }

    private static func eligibilityRequirements(
        _ contract: JSONValue, contractName: String, diagnostics: inout [StudyDiagnostic]
    ) -> [EligibilityRequirement] {
        guard
            let group = contained(
                contract["subject"]?[0], in: contract, type: "Group", role: "subject[0]", contractName: contractName,
                diagnostics: &diagnostics)
        else { return [] }
        var requirements: [EligibilityRequirement] = []
        for (index, characteristic) in (group["characteristic"]?.arrayValue ?? []).enumerated() {
            let json = (try? characteristic.serialized()).flatMap { String(data: $0, encoding: .utf8) } ?? "?"
            func skipped(_ message: String) {
                diagnostics.append(
                    .warning(
                        .characteristicSkipped, file: contractName, location: "subject[0] Group.characteristic[\(index)]",
                        message))
            }
            guard let question = characteristic["code"]?["text"]?.stringValue else {
                skipped("eligibility characteristic[\(index)] skipped: no code.text: \(json)")
                continue
            }
            guard let exclude = characteristic["exclude"]?.boolValue else {
                skipped("eligibility characteristic[\(index)] skipped: no boolean exclude: \(json)")
                continue
            }
            let value: Bool
            switch characteristic["valueBoolean"] {
            case nil: value = true  // C3 treats a missing valueBoolean (or another value[x]) as true
            case .bool(let b)?: value = b
            case let other?:
                skipped("eligibility characteristic[\(index)] skipped: valueBoolean is \(other.typeName): \(json)")
                continue
            }
            requirements.append(EligibilityRequirement(question: question, mustBeMet: value != exclude))
        }
        return requirements
    }
}
