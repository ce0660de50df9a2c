print("consentd: placeholder")
