print("consentctl: placeholder")
